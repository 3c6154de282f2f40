//! `petstore service install|uninstall|run`: the headless server as a Windows service, so a
//! shop's counter PC serves the tills from boot, with nobody signed in.
//!
//! - `install [SERVE FLAGS]` registers the service "petstore" (shown as "Pet Store"), started
//!   automatically at boot, run as the Local System account, with the serving flags given
//!   and the store named explicitly (`--db`, or the installing user's own store: the service's
//!   account has a data folder of its own, not the shop user's). The store must exist already,
//!   since a new store's admin key is shown only once, on a console the service does not
//!   have: `petstore serve` once first. Without `--log-file` the log goes to `petstore.log`
//!   beside the store, for the same reason.
//! - `uninstall` stops the service (gracefully, as below) and removes it.
//! - `run` is what the service manager starts: it serves until the service is stopped (`sc stop
//!   petstore`, `net stop petstore`, the Services console) or Windows shuts down, then finishes
//!   the requests in flight and closes the store, as Ctrl+C does on a console.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Subcommand;
use windows_service::service::{
    ServiceAccess, ServiceControl, ServiceControlAccept, ServiceErrorControl, ServiceExitCode,
    ServiceInfo, ServiceStartType, ServiceState, ServiceStatus, ServiceType,
};
use windows_service::service_control_handler::{
    self, ServiceControlHandlerResult, ServiceStatusHandle,
};
use windows_service::service_dispatcher;
use windows_service::service_manager::{ServiceManager, ServiceManagerAccess};

use crate::settings::{ServeArgs, Settings};
use crate::Error;

/// The service's name for `sc` and `net`.
pub const NAME: &str = "petstore";
const DISPLAY_NAME: &str = "Pet Store";
const DESCRIPTION: &str = "Serves the pet shop's store to its tills, tablets and staff UI.";
/// How long Windows is told a graceful stop may take before it gives up on the service.
const STOP_HINT: Duration = Duration::from_secs(30);

// Parsed once per process: the size of `Run`'s flags costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum ServiceCommand {
    /// Register the server as the Windows service "petstore", started at boot (run as an
    /// administrator; the serving flags after `install` are the service's, e.g.
    /// `--bind 0.0.0.0:8080`)
    Install {
        /// `petstore serve` flags for the service
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "SERVE FLAGS"
        )]
        serve: Vec<OsString>,
    },
    /// Stop and remove the Windows service (run as an administrator)
    Uninstall,
    /// Serve as the Windows service (what the service manager starts; not for a console)
    Run(ServeArgs),
}

/// Registers the service for the store `db` (or this user's store) with the serving flags
/// `serve`, after checking that they are flags `petstore serve` takes.
pub fn install(
    db: Option<PathBuf>,
    serve: Vec<OsString>,
    out: &mut impl std::io::Write,
) -> Result<(), Error> {
    let mut argv: Vec<OsString> = vec!["petstore".into()];
    if let Some(db) = &db {
        argv.extend(["--db".into(), db.clone().into_os_string()]);
    }
    argv.extend(serve.iter().cloned());
    let settings = Settings::from_args(&argv)?;
    let db = std::path::absolute(&settings.db)?;
    if crate::store::Location::of(&db)
        .file()
        .is_some_and(|file| !file.is_file())
    {
        return Err(Error::Settings(format!(
            "there is no store at {} yet: run `petstore serve` once first (it makes the store \
             and shows its admin key, which a service cannot show), stop it, then install",
            db.display()
        )));
    }
    let mut launch: Vec<OsString> = vec!["--db".into(), db.clone().into_os_string()];
    launch.extend(["service".into(), "run".into()]);
    launch.extend(without_db(&serve));
    let log = match &settings.log.file {
        Some(file) => std::path::absolute(file)?,
        None => {
            let file = crate::store::files_parent(&db).join("petstore.log");
            launch.extend(["--log-file".into(), file.clone().into_os_string()]);
            file
        }
    };
    let manager = ServiceManager::local_computer(
        None::<&str>,
        ServiceManagerAccess::CONNECT | ServiceManagerAccess::CREATE_SERVICE,
    )
    .map_err(|e| refused("open the service manager (run as an administrator)", e))?;
    let info = ServiceInfo {
        name: NAME.into(),
        display_name: DISPLAY_NAME.into(),
        service_type: ServiceType::OWN_PROCESS,
        start_type: ServiceStartType::AutoStart,
        error_control: ServiceErrorControl::Normal,
        executable_path: std::env::current_exe()?,
        launch_arguments: launch,
        dependencies: vec![],
        account_name: None,
        account_password: None,
    };
    let service = manager
        .create_service(&info, ServiceAccess::CHANGE_CONFIG)
        .map_err(|e| refused("register the service", e))?;
    service
        .set_description(DESCRIPTION)
        .map_err(|e| refused("describe the service", e))?;
    writeln!(
        out,
        "Installed the Windows service \"{NAME}\" ({DISPLAY_NAME}), started at boot."
    )?;
    writeln!(out, "Store: {}", crate::store::shown(&db))?;
    writeln!(out, "Log: {}", log.display())?;
    writeln!(out, "Start it now with: sc start {NAME}")?;
    Ok(())
}

/// Stops the service (waiting for its graceful stop) and removes it.
pub fn uninstall(out: &mut impl std::io::Write) -> Result<(), Error> {
    let manager = ServiceManager::local_computer(None::<&str>, ServiceManagerAccess::CONNECT)
        .map_err(|e| refused("open the service manager (run as an administrator)", e))?;
    let access = ServiceAccess::QUERY_STATUS | ServiceAccess::STOP | ServiceAccess::DELETE;
    let service = manager
        .open_service(NAME, access)
        .map_err(|e| refused("find the service", e))?;
    let mut state = service
        .query_status()
        .map_err(|e| refused("ask the service's state", e))?
        .current_state;
    if state != ServiceState::Stopped {
        writeln!(out, "Stopping the service…")?;
        service.stop().map_err(|e| refused("stop the service", e))?;
        let deadline = std::time::Instant::now() + STOP_HINT;
        while state != ServiceState::Stopped && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(250));
            state = service
                .query_status()
                .map_err(|e| refused("ask the service's state", e))?
                .current_state;
        }
    }
    service
        .delete()
        .map_err(|e| refused("remove the service", e))?;
    writeln!(
        out,
        "Removed the Windows service \"{NAME}\". The store and its backups stay where they are."
    )?;
    Ok(())
}

/// The serving flags without a `--db` among them (the service is given the store's full path
/// instead, once).
fn without_db(flags: &[OsString]) -> Vec<OsString> {
    let mut kept = Vec::with_capacity(flags.len());
    let mut flags = flags.iter();
    while let Some(flag) = flags.next() {
        if flag == "--db" {
            flags.next();
        } else if !flag.to_string_lossy().starts_with("--db=") {
            kept.push(flag.clone());
        }
    }
    kept
}

fn refused(what: &str, err: windows_service::Error) -> Error {
    let cause = match &err {
        windows_service::Error::Winapi(io) => io.to_string(),
        other => other.to_string(),
    };
    Error::Settings(format!("cannot {what}: {cause}"))
}

/// The settings `run` serves with, handed to the service's main function, which the service
/// manager calls with no way to pass them.
static SETTINGS: Mutex<Option<Settings>> = Mutex::new(None);

/// Serves as the Windows service: hands the process to the service manager, which calls
/// [`service_main`]. Returns when the service has stopped.
pub fn run(settings: Settings) -> Result<(), Error> {
    *SETTINGS.lock().unwrap_or_else(|e| e.into_inner()) = Some(settings);
    service_dispatcher::start(NAME, ffi_service_main).map_err(|e| {
        refused(
            "reach the service manager (`petstore service run` is started by Windows; on a \
             console use `petstore serve`)",
            e,
        )
    })
}

windows_service::define_windows_service!(ffi_service_main, service_main);

fn service_main(_arguments: Vec<OsString>) {
    if let Err(err) = serve_as_service() {
        tracing::error!("the service stopped: {err}");
    }
}

fn serve_as_service() -> Result<(), Error> {
    let settings = SETTINGS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .ok_or_else(|| Error::Settings("the service was started twice".into()))?;
    let stop = Arc::new(tokio::sync::Notify::new());
    let stop_asked = stop.clone();
    let handler = move |control| match control {
        ServiceControl::Stop | ServiceControl::Shutdown | ServiceControl::Preshutdown => {
            tracing::info!("the service manager asks the server to stop");
            stop_asked.notify_one();
            ServiceControlHandlerResult::NoError
        }
        ServiceControl::Interrogate => ServiceControlHandlerResult::NoError,
        _ => ServiceControlHandlerResult::NotImplemented,
    };
    let status = service_control_handler::register(NAME, handler)
        .map_err(|e| refused("register with the service manager", e))?;
    let accept = ServiceControlAccept::STOP | ServiceControlAccept::SHUTDOWN;
    report(
        status,
        ServiceState::Running,
        accept,
        ServiceExitCode::Win32(0),
        Duration::ZERO,
    )
    .map_err(|e| refused("report the service running", e))?;
    let result = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(Error::from)
        .and_then(|runtime| {
            runtime.block_on(crate::cli::serve_until(settings, async move {
                stop.notified().await;
                let _ = report(
                    status,
                    ServiceState::StopPending,
                    ServiceControlAccept::empty(),
                    ServiceExitCode::Win32(0),
                    STOP_HINT,
                );
            }))
        });
    let exit = match &result {
        Ok(()) => ServiceExitCode::Win32(0),
        Err(_) => ServiceExitCode::ServiceSpecific(1),
    };
    let _ = report(
        status,
        ServiceState::Stopped,
        ServiceControlAccept::empty(),
        exit,
        Duration::ZERO,
    );
    result
}

/// Tells the service manager the service's state.
fn report(
    status: ServiceStatusHandle,
    state: ServiceState,
    accept: ServiceControlAccept,
    exit: ServiceExitCode,
    hint: Duration,
) -> windows_service::Result<()> {
    status.set_service_status(ServiceStatus {
        service_type: ServiceType::OWN_PROCESS,
        current_state: state,
        controls_accepted: accept,
        exit_code: exit,
        checkpoint: 0,
        wait_hint: hint,
        process_id: None,
    })
}
