//! The store: everything that touches the database (SQLite, or PostgreSQL for a larger
//! shop), and nothing that touches HTTP. Each SQL text is written once for both engines;
//! whatever else differs between them (opening, migrations' lock, the writer's begin and
//! commit, the log, other processes' events) is in `engine`, and no other file here asks
//! which engine it runs on.
//!
//! One writer thread owns the only connection that writes. Writes queue up for it and are
//! committed in groups: one `BEGIN IMMEDIATE … COMMIT` (one fsync, `synchronous=FULL`) for
//! every request waiting, where one request's failure rolls back only its own changes (see
//! `writer`). A request's answer is sent only after its group is durable.
//! Reads run on a few reader threads with their own connections (WAL lets them run beside
//! the writer). No SQLite call ever runs on an async worker thread.
//!
//! The front door speaks the shop's language: `store.pets().create(new)`,
//! `store.orders().place(new, by)`, `store.inventory().adjust(pet, adjustment, by)`,
//! `store.keys().revoke(id)`, `store.ping()`. Each returns a [`Call`], which the caller
//! `.await`s (handlers) or [`Call::wait`]s for (the command line, start-up, maintenance);
//! a write can be made idempotent with [`Call::once`]. Domain types go in and come out;
//! rusqlite never leaves this module.
//!
//! **Adding an operation.** Each resource has one file here: its SQL as private functions
//! over a `&Connection` (reads) or a `&mut Tx` (writes, which may `emit` change events),
//! and at the bottom a small facade struct (`Pets<'s>(&'s Store)`) whose methods wrap those
//! functions in `Call::read` or `Call::write`. To add an operation, write the function and
//! one facade method beside it. To add a resource, add a file with the same two parts, a
//! `pub mod` line and an accessor on [`Store`] below (`pub fn pets(&self) -> Pets<'_>`).
//! Take domain values in (a [`Precondition`](crate::domain::Precondition), never a header);
//! map each constraint a change can break to its `DomainError` where the statement runs.

mod animal_report;
mod backup;
pub mod backups;
pub mod bans;
mod call;
pub mod care;
pub mod categories;
mod checkpointer;
mod claim;
mod connection;
mod db;
mod dialect;
mod engine;
pub mod events;
pub mod export;
pub(crate) mod files;
mod idempotency;
pub mod import;
pub mod inventory;
pub mod keys;
mod maintenance;
mod migrate;
pub mod orders;
mod pages;
pub mod pairings;
pub mod pets;
#[cfg(feature = "postgres")]
mod pg;
pub mod profile;
pub mod purchase_orders;
mod readers;
pub mod receipts;
pub mod refunds;
pub mod reports;
mod restore;
pub mod sales;
pub mod shifts;
pub mod sign_ins;
mod sql;
pub mod staff;
mod startup;
pub mod stocktakes;
pub mod suppliers;
#[cfg(test)]
mod tests;
mod tx;
pub mod usage;
mod writer;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;
use tokio::sync::broadcast;

pub use backup::backup;
pub use backups::{BackupFile, BackupFolder, BackupKind};
pub use call::{as_member, Call, Pending};
pub use claim::Claim;
use db::{Connection, DbError, DbResult};
pub use engine::Location;
pub use restore::{restore, Restored};
use tx::Tx;

use crate::domain::event::Event;
use crate::domain::DomainError;

/// The folder for the store's own files (backups, certificate): see [`Location::files_parent`].
pub fn files_parent(path: &Path) -> PathBuf {
    Location::of(path).files_parent()
}

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
    /// The disk is full or failing, or the PostgreSQL server cannot be reached: nothing of the
    /// request was saved; it may be retried once space is freed or the database is back.
    #[error("{}", unavailable_message(.0))]
    Unavailable(String),
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    #[error("{0}")]
    Internal(String),
    /// The store cannot be used at all (a bad file, or another petstore has it open); the
    /// message is one sentence for the person starting the program.
    #[error("{0}")]
    Refused(String),
    /// The store's schema was written by a newer petstore, on either engine: it is left as
    /// it is rather than guessed at.
    #[error(
        "the store's schema is version {found}, newer than this program knows ({known}); use a newer petstore"
    )]
    NewerSchema { found: i64, known: i64 },
}

/// What a client is told when the store cannot save: the cause an owner should look at.
fn unavailable_message(why: &str) -> &'static str {
    if why.contains("PostgreSQL") && !why.contains("(53100)") {
        "the store cannot save changes right now (its PostgreSQL database cannot be reached); \
         nothing was saved, try again shortly"
    } else {
        "the store cannot save changes right now (the disk is full or failing); nothing was \
         saved, try again shortly"
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        DbError::from(err).into()
    }
}

impl From<DbError> for StoreError {
    fn from(err: DbError) -> Self {
        match err {
            DbError::Sqlite(err) => Self::from_sqlite(err),
            #[cfg(feature = "postgres")]
            DbError::Pg(err) => Self::from_pg(err),
            #[cfg(feature = "postgres")]
            DbError::Lost => Self::Unavailable(err.to_string()),
            DbError::NoRows => Self::Sqlite(rusqlite::Error::QueryReturnedNoRows),
            DbError::Unsupported => Self::Internal(err.to_string()),
        }
    }
}

/// What a client is told when a write raced another to the same unique value. The
/// statements that can meet one map it to their own code first; this is the fallback: 409,
/// never 500.
fn clash() -> StoreError {
    StoreError::Domain(DomainError::Conflict(
        "the change clashes with a record written at the same moment; read it again".into(),
    ))
}

impl StoreError {
    /// The store's reading of a SQLite error.
    fn from_sqlite(err: rusqlite::Error) -> Self {
        if is_sqlite_unique_violation(&err) {
            return clash();
        }
        match err.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                Self::Busy
            }
            Some(rusqlite::ErrorCode::DiskFull | rusqlite::ErrorCode::SystemIoFailure) => {
                Self::Unavailable(err.to_string())
            }
            _ => Self::Sqlite(err),
        }
    }

    /// The store's reading of a PostgreSQL error.
    #[cfg(feature = "postgres")]
    fn from_pg(err: pg::PgError) -> Self {
        use postgres::error::SqlState;
        match err.code() {
            Some(&SqlState::UNIQUE_VIOLATION) => clash(),
            Some(
                &SqlState::T_R_SERIALIZATION_FAILURE
                | &SqlState::T_R_DEADLOCK_DETECTED
                | &SqlState::LOCK_NOT_AVAILABLE
                | &SqlState::TOO_MANY_CONNECTIONS,
            ) => Self::Busy,
            Some(
                &SqlState::DISK_FULL | &SqlState::ADMIN_SHUTDOWN | &SqlState::CANNOT_CONNECT_NOW,
            )
            | None => Self::Unavailable(err.to_string()),
            Some(_) => Self::Internal(err.to_string()),
        }
    }
}

/// Whether `err` is a `UNIQUE` or `PRIMARY KEY` constraint refusing a duplicate.
fn is_unique_violation(err: &DbError) -> bool {
    match err {
        DbError::Sqlite(err) => is_sqlite_unique_violation(err),
        #[cfg(feature = "postgres")]
        DbError::Pg(pg) => pg.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION),
        _ => false,
    }
}

fn is_sqlite_unique_violation(err: &rusqlite::Error) -> bool {
    matches!(
        err,
        rusqlite::Error::SqliteFailure(e, _)
            if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
                || e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
    )
}

/// Maps a unique violation of one statement to the domain error it means there.
fn on_unique<T>(result: DbResult<T>, err: impl FnOnce() -> DomainError) -> Result<T> {
    match result {
        Err(e) if is_unique_violation(&e) => Err(err().into()),
        other => Ok(other?),
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
    /// What the lists remember between requests, under the writer's table versions.
    pages: Arc<pages::Pages>,
    /// The exclusive lock of a serving store, released by [`Store::close`].
    lock: std::sync::Mutex<Option<std::fs::File>>,
    /// PostgreSQL: the thread that hands every process's events to the subscribers.
    follower: Option<engine::postgres_follower::Follower>,
}

/// The store's location as it may be printed or logged: see [`Location::shown`].
pub fn shown(path: &Path) -> String {
    Location::of(path).shown()
}

impl Store {
    /// Opens (creating if need be) the store at `path` and brings its schema up to date.
    /// Refuses a file that is read-only, damaged, another program's or from a newer petstore.
    pub fn open(path: &Path) -> Result<Self> {
        Location::of(path).open(false)
    }

    /// [`Store::open`] for serving: also takes the store's exclusive lock, so a second
    /// petstore serving the same file is refused while this one has it open. On PostgreSQL,
    /// waits (saying so in the log) while the database server cannot be reached yet.
    pub fn open_exclusive(path: &Path) -> Result<Self> {
        Location::of(path).open(true)
    }

    /// What the lists remember (see `pages`).
    fn pages(&self) -> Arc<pages::Pages> {
        self.inner.pages.clone()
    }

    /// Where the store's file is.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Sends a read to a reader thread; `reply` gets its answer.
    fn submit_read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T> + Send + 'static,
        reply: Box<dyn FnOnce(Result<T>) + Send>,
    ) -> Result<()> {
        self.inner
            .readers
            .submit(Box::new(move |conn| reply(f(conn))))
    }

    /// Sends a write to the writer's next group commit; `reply` gets its answer once the
    /// group is durable.
    fn submit_write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Tx<'_>) -> Result<T> + Send + 'static,
        reply: Box<dyn FnOnce(Result<T>) + Send>,
        many_pages: bool,
    ) -> Result<()> {
        self.inner.writer.submit(f, reply, many_pages)
    }

    /// Whether the store answers a query.
    pub fn ping(&self) -> Call<'_, ()> {
        Call::read(self, |conn: &Connection| {
            conn.prepare_cached("SELECT 1")?
                .query_row([], |row| row.get::<_, i64>(0))?;
            Ok(())
        })
    }

    /// The animals for sale.
    pub fn pets(&self) -> pets::Pets<'_> {
        pets::Pets(self)
    }

    pub fn care(&self) -> care::Care<'_> {
        care::Care(self)
    }

    pub fn animal_report(&self) -> animal_report::AnimalReport<'_> {
        animal_report::AnimalReport(self)
    }

    /// The kinds of animal.
    pub fn categories(&self) -> categories::Categories<'_> {
        categories::Categories(self)
    }

    /// Stock counts, adjustments and the stock history.
    pub fn inventory(&self) -> inventory::Inventory<'_> {
        inventory::Inventory(self)
    }

    /// Placing, completing and cancelling orders.
    pub fn orders(&self) -> orders::Orders<'_> {
        orders::Orders(self)
    }

    /// The shop's name, currency and time zone.
    pub fn profile(&self) -> profile::Profile<'_> {
        profile::Profile(self)
    }

    /// Sales at the counter.
    pub fn sales(&self) -> sales::Sales<'_> {
        sales::Sales(self)
    }

    /// Refunds of sales.
    pub fn refunds(&self) -> refunds::Refunds<'_> {
        refunds::Refunds(self)
    }

    /// Sales' printed receipts.
    pub fn receipts(&self) -> receipts::Receipts<'_> {
        receipts::Receipts(self)
    }

    /// Shifts of the tills' cash drawers.
    pub fn shifts(&self) -> shifts::Shifts<'_> {
        shifts::Shifts(self)
    }

    /// The daily report.
    pub fn reports(&self) -> reports::Reports<'_> {
        reports::Reports(self)
    }

    /// What the shop orders from its suppliers.
    pub fn purchase_orders(&self) -> purchase_orders::PurchaseOrders<'_> {
        purchase_orders::PurchaseOrders(self)
    }

    /// The wholesalers the shop buys from.
    pub fn suppliers(&self) -> suppliers::Suppliers<'_> {
        suppliers::Suppliers(self)
    }

    /// Counting the shelves.
    pub fn stocktakes(&self) -> stocktakes::Stocktakes<'_> {
        stocktakes::Stocktakes(self)
    }

    /// The CSV exports.
    pub fn export(&self) -> export::Export<'_> {
        export::Export(self)
    }

    /// The CSV import of pets.
    pub fn import(&self) -> import::Import<'_> {
        import::Import(self)
    }

    /// API keys (stored with a hash of their secret).
    pub fn keys(&self) -> keys::Keys<'_> {
        keys::Keys(self)
    }

    /// The change events kept for resuming subscribers.
    pub fn events(&self) -> events::Events<'_> {
        events::Events(self)
    }

    /// Staff members and their sign-in sessions.
    pub fn staff(&self) -> staff::Staff<'_> {
        staff::Staff(self)
    }

    /// Pairing codes waiting for their device.
    pub fn pairings(&self) -> pairings::Pairings<'_> {
        pairings::Pairings(self)
    }

    /// Wrong staff PINs and the locks they start.
    pub fn sign_ins(&self) -> sign_ins::SignIns<'_> {
        sign_ins::SignIns(self)
    }

    /// Temporary bans shared by the processes serving the store.
    pub fn bans(&self) -> bans::Bans<'_> {
        bans::Bans(self)
    }

    pub fn usage(&self) -> usage::Usage<'_> {
        usage::Usage(self)
    }

    /// Forgets old events, idempotency records, day counts, ended pairing codes and old
    /// wrong PINs; how many rows went.
    pub fn prune(&self) -> Call<'_, usize> {
        Call::write(self, maintenance::prune)
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
        if let Some(follower) = &self.inner.follower {
            follower.stop();
        }
        self.inner
            .lock
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
    }
}
