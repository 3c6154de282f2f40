//! Opening a store on its engine: the threads every store has (one writer, a few readers)
//! over the engine's connections, once its schema is up to date.
//!
//! - **SQLite**: the file is prepared and checked (see `startup`), migrated on the writer's
//!   own connection, and made private; a serving store also holds the file's exclusive lock.
//!   Programs starting together on a new file race to switch it to WAL, which SQLite answers
//!   "busy" at once, past any busy timeout: opening is tried again for a few seconds before
//!   the file is called locked. The writer hands the log's copying to a checkpoint thread,
//!   and change events go straight to this process's subscribers.
//! - **PostgreSQL**: several processes serving one database is the point, so there is no
//!   lock of its own; a serving store waits (saying so in the log) while the database server
//!   cannot be reached yet (after a power cut it may start after petstore). The schema is
//!   migrated under the setup lock (see `migrating`). Every process's events reach this
//!   one's subscribers through the event follower (`postgres_follower`), which the writer
//!   wakes at each commit; nothing is remembered between requests, since other processes
//!   write the same tables.

use std::path::Path;
use std::sync::Arc;

use tokio::sync::broadcast;

use super::super::db::Connection;
use super::super::{
    connection, migrate, pages, readers, startup, writer, Inner, Result, Store, StoreError,
    EVENT_BUFFER,
};

/// How often opening a store is tried again while another program holds it busy.
const OPEN_RETRIES: u64 = 40;

/// Opens (creating if need be) the SQLite store at `path`; `exclusive` for serving (see the
/// module header).
pub(super) fn sqlite(path: &Path, exclusive: bool) -> Result<Store> {
    let lock = if exclusive {
        startup::prepare(path)?;
        Some(startup::lock(path)?)
    } else {
        None
    };
    startup::prepare(path)?;
    let mut attempt = 0;
    let conn = loop {
        let opened = connection::open_writer(path)
            .and_then(|conn| startup::check(&conn, path).map(|()| Connection::Lite(conn)))
            .and_then(|conn| migrate::run(&conn).map(|()| conn));
        match opened {
            Err(StoreError::Busy) if attempt < OPEN_RETRIES => {
                attempt += 1;
                std::thread::sleep(std::time::Duration::from_millis(20 * attempt));
            }
            other => break other.map_err(|e| startup::explain(path, e))?,
        }
    };
    startup::make_private(path);
    let (events, _) = broadcast::channel(EVENT_BUFFER);
    let pages = pages::Pages::new(lock.is_some());
    let checkpoint_path = path.to_owned();
    let writer = writer::spawn(
        move || Ok(conn),
        Some(Box::new(move || {
            connection::open_checkpointer(&checkpoint_path)
        })),
        writer::Sink::Broadcast(events.clone()),
        pages.clone(),
    )?;
    let reader_path = path.to_owned();
    let readers = readers::spawn(
        Arc::new(move || connection::open_reader(&reader_path).map(Connection::Lite)),
        readers::COUNT,
    )?;
    Ok(Store {
        inner: Arc::new(Inner {
            path: path.to_owned(),
            writer,
            readers,
            events,
            pages,
            lock: std::sync::Mutex::new(lock),
            follower: None,
        }),
    })
}

/// Opens the store on the PostgreSQL database at `url` (`shown` is it as it may be logged),
/// migrating it first; `exclusive` (serving) waits for the database server (see the module
/// header).
#[cfg(feature = "postgres")]
pub(super) fn postgres(url: &str, shown: &str, exclusive: bool) -> Result<Store> {
    if exclusive {
        super::super::pg::wait_until_reachable(url, shown);
    }
    let on_own_thread = |url: String| {
        // The PostgreSQL client runs a small runtime of its own, which cannot start on
        // an async worker thread: connect and migrate on a plain thread.
        std::thread::spawn(move || migrate::run(&connection::open_postgres(&url, false)?))
            .join()
            .map_err(|_| StoreError::Internal("migrating the database panicked".into()))?
    };
    on_own_thread(url.to_owned())?;
    let (events, _) = broadcast::channel(EVENT_BUFFER);
    let follower = super::postgres_follower::Follower::start(url.to_owned(), events.clone())?;
    let pages = pages::Pages::new(false);
    let writer_url = url.to_owned();
    let writer = writer::spawn(
        move || connection::open_postgres(&writer_url, false),
        None,
        writer::Sink::Wake(follower.waker()),
        pages.clone(),
    )?;
    let reader_url = url.to_owned();
    let readers = readers::spawn(
        Arc::new(move || connection::open_postgres(&reader_url, true)),
        readers::POSTGRES_COUNT,
    )?;
    Ok(Store {
        inner: Arc::new(Inner {
            path: std::path::PathBuf::from(url),
            writer,
            readers,
            events,
            pages,
            lock: std::sync::Mutex::new(None),
            follower: Some(follower),
        }),
    })
}

/// A build without PostgreSQL (the desktop app's) refuses a PostgreSQL store.
#[cfg(not(feature = "postgres"))]
pub(super) fn postgres(_url: &str, _shown: &str, _exclusive: bool) -> Result<Store> {
    Err(StoreError::Refused(
        "this petstore was built without PostgreSQL; use a SQLite file, or the petstore server"
            .into(),
    ))
}
