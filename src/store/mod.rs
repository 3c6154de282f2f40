//! The store: everything that touches SQLite, and nothing that touches HTTP.
//!
//! One writer thread owns the only connection that writes. Writes queue up for it and are
//! committed in groups: one `BEGIN IMMEDIATE … COMMIT` (one fsync, `synchronous=FULL`) for
//! every request waiting, with a savepoint per request so that one request's failure rolls
//! back only its own changes. A request's answer is sent only after its group is durable.
//! Reads run on a few reader threads with their own connections (WAL lets them run beside
//! the writer). No SQLite call ever runs on an async worker thread.

mod backup;
pub mod categories;
mod connection;
pub mod events;
pub mod idempotency;
pub mod inventory;
pub mod keys;
mod migrate;
pub mod orders;
pub mod pets;
mod readers;
mod sql;
pub mod usage;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rusqlite::Connection;
use thiserror::Error;
use tokio::sync::{broadcast, oneshot};

pub use backup::backup;
pub use writer::Tx;

use crate::domain::event::Event;
use crate::domain::DomainError;

/// Why a store operation failed.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The request broke a rule of the shop; the client can fix it.
    #[error(transparent)]
    Domain(#[from] DomainError),
    /// The database was locked by another program past the busy timeout.
    #[error("the store is busy; try again shortly")]
    Busy,
    /// The store is shutting down.
    #[error("the store is shutting down")]
    Closed,
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    #[error("{0}")]
    Internal(String),
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        match err.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                Self::Busy
            }
            _ => Self::Sqlite(err),
        }
    }
}

/// `Result` with [`StoreError`].
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// How many changes the broadcast channel holds for a slow subscriber before it lags.
const EVENT_BUFFER: usize = 1024;

/// A handle to the store; cheap to clone.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    writer: writer::Handle,
    readers: readers::Handle,
    events: broadcast::Sender<Arc<Event>>,
}

impl Store {
    /// Opens (creating if need be) the store at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::Internal(format!("cannot create {}: {e}", dir.display()))
            })?;
        }
        let mut conn = connection::open_writer(path)?;
        migrate::run(&mut conn)?;
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let writer = writer::spawn(conn, events.clone())?;
        let readers = readers::spawn(path, readers::COUNT)?;
        Ok(Self {
            inner: Arc::new(Inner {
                path: path.to_owned(),
                writer,
                readers,
                events,
            }),
        })
    }

    /// Where the store's file is.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Runs `f` on a reader connection, off the async runtime.
    pub async fn read<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        self.inner.readers.submit(Box::new(move |conn| {
            let _ = reply.send(f(conn));
        }))?;
        answer.await.map_err(|_| StoreError::Closed)?
    }

    /// Runs `f` inside the writer's next group commit; answers once it is durable.
    pub async fn write<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Tx<'_>) -> Result<T> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        self.inner.writer.submit(
            f,
            Box::new(move |result| {
                let _ = reply.send(result);
            }),
        )?;
        answer.await.map_err(|_| StoreError::Closed)?
    }

    /// [`Store::write`] for callers outside the async runtime (the command line, start-up
    /// and shutdown); it blocks the calling thread.
    pub fn write_blocking<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Tx<'_>) -> Result<T> + Send + 'static,
    {
        let (reply, answer) = std::sync::mpsc::sync_channel(1);
        self.inner.writer.submit(
            f,
            Box::new(move |result| {
                let _ = reply.send(result);
            }),
        )?;
        answer.recv().map_err(|_| StoreError::Closed)?
    }

    /// [`Store::read`] for callers outside the async runtime; it blocks the calling thread.
    pub fn read_blocking<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T> + Send + 'static,
    {
        let (reply, answer) = std::sync::mpsc::sync_channel(1);
        self.inner.readers.submit(Box::new(move |conn| {
            let _ = reply.send(f(conn));
        }))?;
        answer.recv().map_err(|_| StoreError::Closed)?
    }

    /// Changes as they commit. A subscriber that falls behind by more than the buffer
    /// is told it lagged and resumes from the database.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Event>> {
        self.inner.events.subscribe()
    }

    /// Stops the reader and writer threads after the work already queued, and checkpoints
    /// the WAL into the main file. Later calls fail with [`StoreError::Closed`].
    pub fn close(&self) {
        self.inner.readers.stop();
        self.inner.writer.stop();
    }
}
