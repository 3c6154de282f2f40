//! Opening connections with the settings every connection of the store needs.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::Result;

/// Prepared statements kept per connection: more than the store's distinct queries, so none
/// is parsed twice.
const STATEMENT_CACHE: usize = 64;

/// The writer's page cache: 8 MiB (a negative `cache_size` counts KiB, not pages).
const WRITER_CACHE: i64 = -8192;

/// How long a connection waits for a lock held by another program before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The writer's connection: WAL, foreign keys, and `synchronous=FULL` so that a commit
/// is on the disk before anyone is told it happened.
pub fn open_writer(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // A request that follows another in its group runs in a savepoint, whose undo pages go
    // to a sub-journal, emptied when the savepoint is released. `temp_store=MEMORY` keeps it
    // in memory whatever its size; the writer changes this per group (`writer::group`).
    // Durability is the WAL's.
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    // Every write goes through this connection, and a sale touches leaves all over the
    // by-pet indexes of orders and the stock history: with SQLite's default cache (2 MiB)
    // those pages were read back from the file again and again. The cache fills only as
    // pages are used, so a small store stays small.
    conn.pragma_update(None, "cache_size", WRITER_CACHE)?;
    stable_plans(&conn)?;
    // SQLite's own checkpoints (every 1000 pages, inside the commit that crosses the mark)
    // are replaced by the writer's: see `engine::wal::watch_log`.
    Ok(conn)
}

/// The checkpoint thread's connection (see `checkpointer`): it only copies the log into
/// the store file. `synchronous=FULL`, so a pass that reaches the newest commit syncs the
/// file before SQLite counts its pages as copied, as the writer's own checkpoints do.
pub fn open_checkpointer(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    Ok(conn)
}

/// A reader's connection: read-only, so a bug cannot write through it.
pub fn open_reader(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.pragma_update(None, "foreign_keys", "ON")?;
    stable_plans(&conn)?;
    Ok(conn)
}

/// Plans that do not depend on the values bound to a statement. Without this, a statement
/// on a table with a partial index (`inventory_low`, the pets' code and barcode indexes) is
/// parsed again every time its parameter changes, because the planner looked at the value;
/// the profile of placing an order showed that re-parse as an eighth of the writer's time.
fn stable_plans(conn: &Connection) -> Result<()> {
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG,
        true,
    )?;
    Ok(())
}

/// A PostgreSQL session; a reader's refuses writes.
#[cfg(feature = "postgres")]
pub fn open_postgres(url: &str, read_only: bool) -> Result<super::db::Connection> {
    super::pg::Session::connect(url, read_only)
        .map(|session| super::db::Connection::Pg(Box::new(session)))
        .map_err(|e| {
            super::StoreError::Refused(format!(
                "cannot use the PostgreSQL database: {}",
                super::pg::PgError(e)
            ))
        })
}

#[cfg(not(feature = "postgres"))]
#[allow(dead_code)]
pub fn open_postgres(_url: &str, _read_only: bool) -> Result<super::db::Connection> {
    Err(super::StoreError::Refused(
        "this petstore was built without PostgreSQL".into(),
    ))
}
