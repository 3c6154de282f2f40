//! `petstore-desktop`: the shop counter's window onto the store.
//!
//! One process does it all. [`run`] opens the store (the same data folder, the same migrations
//! and the same `PETSTORE_*` settings as `petstore serve`), starts the same server in-process on
//! loopback ([`server`]), and shows the staff UI from that server in a window signed in as the
//! shop's admin ([`window`]). The staff UI can let devices on the shop's network in and restore
//! a backup, through the commands in [`commands`]; the LAN setting itself lives in [`lan`], the
//! state behind the commands in [`shell`]. Low stock and a change of network raise system
//! notifications ([`alerts`]); the network is looked at every few seconds ([`watch_network`]).
//!
//! Closing the window (or SIGTERM / Ctrl+C) stops every listener, lets requests in flight
//! finish, and only then closes the store, which checkpoints its WAL. A crash skips all that
//! and loses nothing committed: SQLite's WAL recovers on the next open.
//!
//! Nothing here knows about HTTP routes or SQL; that is the `petstore` library's job.

mod alerts;
mod commands;
mod lan;
mod server;
mod shell;
mod window;

use std::{io::IsTerminal, process::ExitCode, sync::Arc, time::Duration};

use tauri::{AppHandle, Manager};
use tauri_plugin_notification::NotificationExt;

use crate::shell::Shell;

/// The name of the in-memory admin key the window signs in with (it appears as the key name
/// in the stock history).
const SESSION_KEY_NAME: &str = "desktop";

/// How often the shell looks at this PC's networks while LAN access is on.
const NETWORK_CHECK_EVERY: Duration = Duration::from_secs(2);

/// Runs the desktop app until its window is closed; the process's exit code comes back.
pub fn run() -> ExitCode {
    init_tracing();
    if !has_display() {
        eprintln!(
            "petstore-desktop: no display (neither DISPLAY nor WAYLAND_DISPLAY is set).\n\
             Run the headless server instead: petstore serve (or ./scripts/run.sh)"
        );
        return ExitCode::from(2);
    }
    let settings = match petstore::Settings::from_env() {
        Ok(settings) => settings,
        Err(err) => {
            eprintln!("petstore-desktop: {err}");
            return ExitCode::from(2);
        }
    };

    let built = tauri::Builder::default()
        // First, so that a second launch hands over before it opens the store.
        .plugin(tauri_plugin_single_instance::init(|app, _argv, _cwd| {
            window::bring_to_front(app)
        }))
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_dialog::init())
        .invoke_handler(tauri::generate_handler![
            commands::get_lan_status,
            commands::set_lan,
            commands::choose_backup_file,
            commands::restore_backup
        ])
        .setup(move |app| {
            open_store(app.handle(), &settings);
            Ok(())
        })
        .build(tauri::generate_context!());
    let app = match built {
        Ok(app) => app,
        Err(err) => {
            eprintln!("petstore-desktop: cannot open the window: {err}");
            return ExitCode::FAILURE;
        }
    };
    let handle = app.handle().clone();
    let code = app.run_return(|_, _| {});
    let opened = handle.try_state::<Shell>().is_some();
    close_store(&handle);
    match u8::try_from(code) {
        // The window that said the store could not be opened was closed: still a failure.
        Ok(0) if !opened => ExitCode::FAILURE,
        Ok(code) => ExitCode::from(code),
        Err(_) => ExitCode::FAILURE,
    }
}

/// Opens the store, starts the server and shows the staff window; or shows why not.
fn open_store(handle: &AppHandle, settings: &petstore::Settings) {
    if let Err(detail) = start(handle, settings) {
        tracing::error!(%detail, "the store could not be opened");
        if let Err(err) =
            window::open_startup_error(handle, "The store could not be opened.", &detail)
        {
            tracing::error!(%err, "cannot show the startup error either");
            handle.exit(1);
        }
    }
}

fn start(handle: &AppHandle, settings: &petstore::Settings) -> Result<(), String> {
    // Opening runs the migrations: SQLite work stays on this thread, off the async workers.
    let app = petstore::App::open(settings)
        .map_err(|err| format!("{}\n\n{err}", settings.db.display()))?;
    if let Some(key) = app.first_admin_key() {
        // The same words as `petstore serve`; the window itself needs no key.
        println!(
            "This is a new store ({}). Its admin key (shown only now; keep it safe):\n  {key}",
            settings.db.display()
        );
    }
    let session_key = app.issue_session_key(SESSION_KEY_NAME);

    // The same settings model as `petstore serve`: it knows whether PETSTORE_BIND gave the
    // address or it is the default.
    let bind_was_set = settings.was_given("bind");
    let window_addr = server::window_address(settings.bind, bind_was_set);
    let extra_addr = (bind_was_set && window_addr != settings.bind).then_some(settings.bind);
    let shell = tauri::async_runtime::block_on(Shell::start(
        app,
        window_addr,
        extra_addr,
        lan::settings_path(),
        (SESSION_KEY_NAME.to_owned(), session_key.clone()),
        notifier(handle),
    ))
    .map_err(|err| format!("The server could not start: {err}"))?;
    let origin = tauri::async_runtime::block_on(shell.window_origin())
        .ok_or_else(|| "The server stopped while starting.".to_owned())?;
    handle.manage(shell);

    window::open_staff_window(handle, &origin, &session_key)
        .map_err(|err| format!("The window could not show the store: {err}"))?;
    exit_on_signals(handle.clone());
    watch_network(handle.clone());
    tracing::info!(%origin, "the staff window is open");
    Ok(())
}

/// Raises system notifications through Tauri's notification plugin (on Linux, the desktop's
/// notification service on the D-Bus session bus), off the async workers.
fn notifier(handle: &AppHandle) -> alerts::Raise {
    let handle = handle.clone();
    Arc::new(move |title: String, body: String| {
        let handle = handle.clone();
        tauri::async_runtime::spawn_blocking(move || {
            if let Err(err) = handle
                .notification()
                .builder()
                .title(&title)
                .body(&body)
                .show()
            {
                tracing::warn!(%err, %title, "the system notification could not be shown");
            }
        });
    })
}

/// Looks at this PC's networks every [`NETWORK_CHECK_EVERY`]: when the LAN listener's address
/// goes away or a network appears, LAN access stops and the shop is asked again.
fn watch_network(handle: AppHandle) {
    tauri::async_runtime::spawn(async move {
        loop {
            tokio::time::sleep(NETWORK_CHECK_EVERY).await;
            let Some(shell) = handle.try_state::<Shell>() else {
                return;
            };
            shell.check_network().await;
        }
    });
}

/// After the event loop: stop serving, wait for requests in flight, then close the store.
fn close_store(handle: &AppHandle) {
    let Some(shell) = handle.try_state::<Shell>() else {
        return;
    };
    if let Some(app) = tauri::async_runtime::block_on(shell.shutdown()) {
        app.close();
        tracing::info!("the store is closed");
    }
}

/// SIGTERM (a logout, `systemctl stop`, `kill`) and Ctrl+C close the app the graceful way.
fn exit_on_signals(handle: AppHandle) {
    tauri::async_runtime::spawn(async move {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let Ok(mut terminate) = signal(SignalKind::terminate()) else {
                return;
            };
            tokio::select! {
                _ = terminate.recv() => {}
                _ = tokio::signal::ctrl_c() => {}
            }
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("asked to stop; closing the window");
        handle.exit(0);
    });
}

fn has_display() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| std::env::var_os(name).is_some_and(|value| !value.is_empty()))
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("PETSTORE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}
