//! What the migration runner (`migrate::run`, one runner for both engines) asks of an
//! engine: the lock under which one process migrates while the others wait, the table that
//! records each step, and how one step's script runs and is recorded as one change.
//!
//! - **SQLite**: the whole run (reading the version, applying what is missing, recording it)
//!   is one `BEGIN IMMEDIATE` transaction. A second program starting on the same file waits
//!   for the first, then finds the schema up to date. Nothing is half-applied. A step runs
//!   its SQLite file, then its Rust steps (changes plain SQL cannot make on SQLite).
//! - **PostgreSQL**: a session-level advisory lock ([`dialect::SETUP_LOCK`]) makes processes
//!   starting together take turns: the first migrates, the others find it done. (An advisory
//!   lock rather than a lock row: it needs no table before the first migration, and the server
//!   releases it if the process dies.) Each step is its own transaction: its PostgreSQL file
//!   and its record commit together.

use super::super::db::{Connection, DbResult};
use super::super::dialect;
use super::super::Result;

/// The table recording every migration applied, in this engine's integer type.
pub(in crate::store) fn table(conn: &Connection) -> &'static str {
    if conn.is_postgres() {
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    BIGINT PRIMARY KEY,
             name       TEXT NOT NULL,
             applied_at TEXT NOT NULL
         )"
    } else {
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    INTEGER PRIMARY KEY,
             name       TEXT NOT NULL,
             applied_at TEXT NOT NULL
         )"
    }
}

/// Runs the whole migration `run` holding the engine's migration lock (see the module
/// header); on SQLite, an error undoes all of it.
pub(in crate::store) fn locked(
    conn: &Connection,
    run: impl FnOnce(&Connection) -> Result<()>,
) -> Result<()> {
    if conn.is_postgres() {
        conn.execute_batch(&format!("SELECT pg_advisory_lock({})", dialect::SETUP_LOCK))?;
        let result = run(conn);
        let unlocked = conn.execute_batch(&format!(
            "SELECT pg_advisory_unlock({})",
            dialect::SETUP_LOCK
        ));
        result?;
        unlocked?;
        return Ok(());
    }
    conn.execute_batch("BEGIN IMMEDIATE")?;
    match run(conn).and_then(|()| Ok(conn.execute_batch("COMMIT")?)) {
        Ok(()) => Ok(()),
        Err(err) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(err)
        }
    }
}

/// Applies one migration inside [`locked`]: its SQLite script and Rust steps (`sqlite`) or
/// its PostgreSQL script (`postgres`), then `record`, as one change.
pub(in crate::store) fn apply(
    conn: &Connection,
    sqlite: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<()>,
    postgres: &str,
    record: impl FnOnce(&Connection) -> DbResult<()>,
) -> Result<()> {
    if let Some(lite) = conn.lite() {
        // Already inside the run's one transaction.
        sqlite(lite)?;
        record(conn)?;
        return Ok(());
    }
    conn.execute_batch("BEGIN")?;
    let done = conn.execute_batch(postgres).and_then(|()| record(conn));
    match done {
        Ok(()) => Ok(conn.execute_batch("COMMIT")?),
        Err(err) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(err.into())
        }
    }
}
