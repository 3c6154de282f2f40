//! The `petstore` command line: `serve` (the default), `demo`, `keys create|list|revoke`,
//! `backup FILE`, `restore FILE` and, on Windows, `service install|uninstall|run`.

use std::io::Write;
use std::path::PathBuf;

use clap::{ArgMatches, Parser, Subcommand};

use crate::domain::key::{NewKey, NewKeyInput};
use crate::settings::{ServeArgs, Settings};
use crate::store::{self, Store};
use crate::{App, Error};

/// Pet Store: a pet shop's inventory, served to the shop's tills and tablets on a local SQLite file.
#[derive(Parser)]
#[command(name = "petstore", version, about)]
pub struct Cli {
    /// The store: its SQLite file, or a PostgreSQL URL (postgres://USER:PASSWORD@HOST/DB, the
    /// password URL-encoded) [default: store.sqlite in this user's data folder; for `demo`,
    /// demo/demo.sqlite there]
    #[arg(long, env = "PETSTORE_DB", global = true)]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Serve the API, the staff UI and the docs (the default)
    Serve(ServeArgs),
    /// Create, list or revoke API keys
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Copy the live store to FILE, consistently, while it keeps serving
    Backup {
        /// Where to write the copy (must not exist yet)
        file: PathBuf,
    },
    /// Print the interface's facts as JSON (what openapi/facts.json holds)
    #[command(hide = true)]
    ContractFacts,
    /// Make a new store filled with a demo pet shop, print its keys, and serve it
    Demo(ServeArgs),
    /// Put a backup in place of the store (stop the server or the desktop app first); the
    /// store it replaces is kept beside it under a dated name
    Restore {
        /// The backup to restore (a file from the backups folder or from `petstore backup`)
        file: PathBuf,
    },
    /// The server as a Windows service: install, uninstall, or run (as the service)
    #[cfg(windows)]
    #[command(subcommand)]
    Service(crate::service::ServiceCommand),
}

#[derive(Subcommand)]
pub enum KeysCommand {
    /// Create a key and print its secret (shown this once)
    Create {
        #[arg(long)]
        name: String,
        /// readonly, pos, staff or admin
        #[arg(long)]
        role: String,
        /// free, pro, business or enterprise
        #[arg(long, default_value = "free")]
        plan: String,
        /// Requests a minute (enterprise only)
        #[arg(long)]
        per_minute: Option<u64>,
        /// Requests a day (enterprise only)
        #[arg(long)]
        per_day: Option<u64>,
    },
    /// List keys (never their secrets)
    List,
    /// Revoke a key by id; it stops working within two seconds on a running server
    Revoke { id: i64 },
}

/// Settings for a command that only needs the store.
fn store_settings(db: Option<PathBuf>) -> Result<Settings, Error> {
    Settings::new(db, ServeArgs::default())
}

/// Runs a key command against the store.
pub fn keys(db: Option<PathBuf>, command: KeysCommand, out: &mut impl Write) -> Result<(), Error> {
    let settings = store_settings(db)?;
    let store = Store::open(&settings.db)?;
    let result = run_keys(&store, command, out);
    store.close();
    result
}

fn run_keys(store: &Store, command: KeysCommand, out: &mut impl Write) -> Result<(), Error> {
    match command {
        KeysCommand::Create {
            name,
            role,
            plan,
            per_minute,
            per_day,
        } => {
            let new = NewKey::try_from(NewKeyInput {
                name: Some(name),
                role: Some(role),
                plan: Some(plan),
                per_minute,
                per_day,
            })
            .map_err(|e| Error::Settings(e.to_string()))?;
            let (secret, call) = crate::app::keys::create(store, new);
            let key = call.wait()?;
            writeln!(
                out,
                "Created key {} \"{}\" ({}, {}).",
                key.id,
                key.name,
                key.role.as_str(),
                key.plan.as_str()
            )?;
            writeln!(out, "Secret (shown only now; keep it safe): {secret}")?;
        }
        KeysCommand::List => {
            let keys = store.keys().list().wait()?;
            writeln!(
                out,
                "{:>4}  {:<24} {:<9} {:<11} {:<20} {:<13} {:<21} state",
                "id", "name", "role", "plan", "limits (min/day)", "prefix", "last used"
            )?;
            for key in keys {
                let state = if key.revoked_at.is_some() {
                    "revoked"
                } else {
                    "active"
                };
                let quota = key.quota();
                writeln!(
                    out,
                    "{:>4}  {:<24} {:<9} {:<11} {:<20} {:<13} {:<21} {state}",
                    key.id,
                    key.name,
                    key.role.as_str(),
                    key.plan.as_str(),
                    format!("{}/{}", quota.per_minute, quota.per_day),
                    key.prefix,
                    key.last_used_at.as_deref().unwrap_or("never"),
                )?;
            }
        }
        KeysCommand::Revoke { id } => {
            let key = store.keys().revoke(id).wait()?;
            writeln!(out, "Revoked key {} \"{}\".", key.id, key.name)?;
        }
    }
    Ok(())
}

/// Copies the live store to `file`.
pub fn backup(db: Option<PathBuf>, file: PathBuf, out: &mut impl Write) -> Result<(), Error> {
    let settings = store_settings(db)?;
    store::backup(&settings.db, &file)?;
    writeln!(
        out,
        "Backed up {} to {}.",
        settings.db.display(),
        file.display()
    )?;
    Ok(())
}

/// Puts the backup `file` in place of the store and says what it did.
pub fn restore(db: Option<PathBuf>, file: PathBuf, out: &mut impl Write) -> Result<(), Error> {
    let settings = store_settings(db)?;
    let done = store::restore(&settings.db, &file)?;
    writeln!(
        out,
        "Restored {} into the store {}.",
        file.display(),
        done.store.display()
    )?;
    writeln!(
        out,
        "It holds {} in {} and {} (schema version {}).",
        counted(done.pets, "pet", "pets"),
        counted(done.categories, "category", "categories"),
        counted(done.orders, "order", "orders"),
        done.schema_version
    )?;
    match &done.kept {
        Some(kept) => writeln!(
            out,
            "The store it replaced is kept at {} (nothing was deleted).",
            kept.display()
        )?,
        None => writeln!(out, "There was no store there before.")?,
    }
    writeln!(out, "Start petstore (or the desktop app) again to use it.")?;
    Ok(())
}

/// The settings of `petstore serve` from the command line's matches, each value's source
/// noted. `petstore [--db PATH]` with no command is `petstore [--db PATH] serve`.
pub fn serve_settings(matches: &ArgMatches) -> Result<Settings, Error> {
    if let Some(serve) = matches.subcommand_matches("serve") {
        return Settings::from_matches(serve);
    }
    if let Some(run) = matches
        .subcommand_matches("service")
        .and_then(|service| service.subcommand_matches("run"))
    {
        return Settings::from_matches(run);
    }
    let mut argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    argv.push("serve".into());
    let matches = <Cli as clap::CommandFactory>::command()
        .try_get_matches_from(argv)
        .map_err(|e| Error::Settings(e.to_string()))?;
    match matches.subcommand_matches("serve") {
        Some(serve) => Settings::from_matches(serve),
        None => Err(Error::Settings("cannot read the serving settings".into())),
    }
}

/// Serves until Ctrl-C or SIGTERM, printing the address (and a new store's admin key once).
///
/// A new store's generated admin key is printed once, on purpose: it is the owner's only way
/// in, the store keeps only its hash, and a file holding it would stay on disk long after the
/// first start. An admin key given with `--admin-key` is warned about: every user of the
/// computer can read a command's flags in the process list, while `PETSTORE_ADMIN_KEY` is
/// readable by the same user only.
pub async fn serve(settings: Settings) -> Result<(), Error> {
    serve_until(settings, shutdown_signal()).await
}

/// Serves as [`serve`] does until `stop` resolves (a service's stop, on Windows).
pub async fn serve_until(
    settings: Settings,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), Error> {
    tracing::info!(?settings, "starting");
    if settings.source("admin_key") == crate::settings::Source::Flag {
        tracing::warn!(
            "--admin-key shows the key to every user of this computer in the process list; \
             set PETSTORE_ADMIN_KEY instead"
        );
    }
    let app = App::open(&settings)?;
    let first_admin_key = app.first_admin_key();
    serve_app(&settings, app, stop, |out| {
        if let Some(secret) = first_admin_key {
            writeln!(
                out,
                "This is a new store. Its admin key (shown only now; keep it safe):"
            )?;
            writeln!(out, "  {secret}")?;
        }
        Ok(())
    })
    .await
}

/// Makes a new store filled with the demo shop (at `db`, which must not exist yet, or at
/// `demo/demo.sqlite` in the data folder, made afresh), prints its keys and serves it. The
/// default demo store has a folder of its own, so its backups, certificate and everything
/// else kept beside a store stay apart from the real shop's.
pub async fn demo(db: Option<PathBuf>, mut args: ServeArgs) -> Result<(), Error> {
    let db = match db {
        Some(db) if db.exists() => {
            return Err(Error::Settings(format!(
                "{} already exists: the demo makes a new store (pass a new --db path)",
                db.display()
            )))
        }
        Some(db) => db,
        None => {
            let db = crate::settings::default_db_path()?
                .with_file_name("demo")
                .join("demo.sqlite");
            for suffix in ["", "-wal", "-shm"] {
                let file = PathBuf::from(format!("{}{suffix}", db.display()));
                if file.exists() {
                    std::fs::remove_file(&file)?;
                }
            }
            db
        }
    };
    let admin_key = args
        .admin_key
        .clone()
        .filter(|k| !k.trim().is_empty())
        .unwrap_or_else(|| crate::auth::Secret::generate().into_string());
    args.admin_key = Some(admin_key.clone());
    let settings = Settings::new(Some(db), args)?;
    let app = App::open(&settings)?;
    let shop = crate::demo::fill(&app, &admin_key).await?;
    serve_app(&settings, app, shutdown_signal(), |out| {
        writeln!(
            out,
            "Demo shop: {} pets in {} categories, {} units in stock, {} orders over the last \
             four weeks ({} still open).",
            shop.pets, shop.categories, shop.units, shop.orders, shop.open_orders
        )?;
        writeln!(out, "Admin key: {admin_key}")?;
        writeln!(out, "POS key (Till 1): {}", shop.pos_key)?;
        writeln!(out, "Staff key (Back office): {}", shop.staff_key)?;
        Ok(())
    })
    .await
}

/// Binds, prints the address, the backups and `banner`, and serves `app` until `stop`
/// resolves.
async fn serve_app(
    settings: &Settings,
    app: App,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
    banner: impl FnOnce(&mut std::io::StdoutLock<'static>) -> std::io::Result<()>,
) -> Result<(), Error> {
    let listener = tokio::net::TcpListener::bind(settings.bind)
        .await
        .map_err(|e| Error::Settings(format!("cannot listen on {}: {e}", settings.bind)))?;
    let addr = listener.local_addr()?;
    let https = settings.tls.is_on();
    let scheme = if https { "https" } else { "http" };
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "petstore listening on {scheme}://{addr}")?;
        writeln!(
            out,
            "Staff UI: {scheme}://{addr}/   API docs: {scheme}://{addr}/docs   Store: {}",
            store::shown(&settings.db)
        )?;
        if https {
            let tls = app.network().tls()?;
            writeln!(
                out,
                "HTTPS certificate: {} (until {}; renewed {} days before)",
                tls.cert_path().display(),
                tls.not_after().format("%Y-%m-%d"),
                crate::tls::RENEW_BEFORE_DAYS
            )?;
            writeln!(out, "Its SHA-256 fingerprint: {}", tls.fingerprint())?;
        }
        match settings.backup.every {
            _ if store::Location::of(&settings.db).file().is_none() => writeln!(
                out,
                "Backups: none automatic on a PostgreSQL store; back it up with pg_dump"
            )?,
            Some(every) => writeln!(
                out,
                "Backups: every {} into {} (the newest {} kept)",
                describe_interval(every),
                settings.backup.dir.display(),
                settings.backup.keep
            )?,
            None => writeln!(out, "Backups: automatic backups are off")?,
        }
        banner(&mut out)?;
        out.flush()?;
    }
    if https {
        crate::serve_tls(listener, app.clone(), stop).await?;
    } else {
        crate::serve(listener, app.clone(), stop).await?;
    }
    app.close();
    tracing::info!("stopped");
    Ok(())
}

/// "1 pet", "2 pets".
fn counted(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "24 hours", "30 minutes", "5 seconds", "3.6 seconds": never rounded to another interval.
fn describe_interval(every: std::time::Duration) -> String {
    let secs = every.as_secs();
    let (n, unit) = if every.subsec_nanos() != 0 {
        return format!("{} seconds", every.as_secs_f64());
    } else if secs >= 3600 && secs.is_multiple_of(3600) {
        (secs / 3600, "hour")
    } else if secs >= 60 && secs.is_multiple_of(60) {
        (secs / 60, "minute")
    } else {
        (secs, "second")
    };
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

/// The signal that stops the server: Ctrl-C or SIGTERM (on Windows, Ctrl+C or Ctrl+Break).
/// The handlers are installed when this is called, before the address is printed, so a stop
/// sent the moment the server says it listens is a graceful one (logs written, the store
/// closed), never the default kill.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let handlers = signal(SignalKind::terminate())
            .and_then(|term| signal(SignalKind::interrupt()).map(|interrupt| (term, interrupt)));
        async move {
            match handlers {
                Ok((mut term, mut interrupt)) => {
                    tokio::select! {
                        _ = interrupt.recv() => {}
                        _ = term.recv() => {}
                    }
                }
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(windows)]
    {
        windows_stop()
    }
    #[cfg(not(any(unix, windows)))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// On Windows: Ctrl+C or Ctrl+Break in the console. (Closing the console window, logging off
/// and shutting down end the process as soon as a handler returns, so there is no time for a
/// graceful stop; a store cut off that way loses nothing confirmed.)
#[cfg(windows)]
fn windows_stop() -> impl std::future::Future<Output = ()> {
    use tokio::signal::windows;
    let handlers = windows::ctrl_c().and_then(|c| Ok((c, windows::ctrl_break()?)));
    async move {
        match handlers {
            Ok((mut c, mut brk)) => {
                tokio::select! {
                    _ = c.recv() => {}
                    _ = brk.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
}
