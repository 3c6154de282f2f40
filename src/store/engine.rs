//! Where the writer's code branches on the store's engine, SQLite or PostgreSQL. The SQL of
//! each operation is written once (see `dialect`); these are the mechanisms around it:
//!
//! - **Begin.** On SQLite `BEGIN IMMEDIATE` takes the file's write lock. On PostgreSQL the
//!   store-wide advisory lock (`pg_advisory_xact_lock`, see `dialect::WRITE_LOCK`) does the
//!   same for every process on the database, held until the group's commit.
//! - **Commit.** On PostgreSQL a group that emitted events also sends `NOTIFY`: every
//!   process's event follower wakes at the commit, or not at all.
//! - **Savepoints** run from the connection's statement cache on SQLite.
//! - **Changed tables.** On SQLite every row the writer changes names its table (the update
//!   hook), so the lists know what changed; PostgreSQL stores remember no pages.
//! - **The write-ahead log** and its checkpoints, SQLite's alone, are in [`wal`].
//! - **Events from other processes**, PostgreSQL's alone, reach the subscribers through
//!   [`postgres_follower`].
//!
//! - **Migrations**: the lock one process migrates under, the table that records them, and
//!   how one step runs, for the one runner in `migrate`, are in [`migrating`].
//!
//! The store's opening still branches in its own files (`mod.rs`, `connection.rs`,
//! `backup.rs`, `restore.rs`).

pub(super) mod migrating;
pub(super) mod postgres_follower;
pub(super) mod wal;

use std::sync::Arc;

use super::db::{Connection, DbResult};
use super::dialect;
use super::pages::Pages;
use super::Result;

/// Opens a group's transaction, holding the store's write lock until its commit.
pub(super) fn begin(conn: &Connection) -> DbResult<()> {
    let begun = if conn.is_postgres() {
        conn.execute_batch(&format!(
            "BEGIN; SELECT pg_advisory_xact_lock({})",
            dialect::WRITE_LOCK
        ))
    } else {
        conn.execute_batch("BEGIN IMMEDIATE")
    };
    if begun.is_err() && conn.is_postgres() {
        // `BEGIN` may have run without the lock: leave the connection outside a transaction.
        let _ = conn.execute_batch("ROLLBACK");
    }
    begun
}

/// Commits a group; `with_events` says whether it emitted any (see the module header).
pub(super) fn commit(conn: &Connection, with_events: bool) -> DbResult<()> {
    if conn.is_postgres() && with_events {
        conn.execute_batch(&format!("NOTIFY {}; COMMIT", dialect::EVENTS_CHANNEL))
    } else {
        conn.execute_batch("COMMIT")
    }
}

/// Runs a statement from the connection's statement cache (savepoints run once per
/// request: parsing them every time showed in profiles).
pub(super) fn run_cached(conn: &Connection, sql: &str) -> DbResult<()> {
    match conn.lite() {
        Some(lite) => Ok(lite.prepare_cached(sql)?.execute([]).map(|_| ())?),
        None => conn.execute_batch(sql),
    }
}

/// Tells `pages` of every table the writer changes (SQLite only; see the module header).
pub(super) fn watch_tables(conn: &mut Connection, pages: &Arc<Pages>) -> Result<()> {
    if let Some(lite) = conn.lite_mut() {
        let touched = pages.clone();
        lite.update_hook(Some(move |_, _: &str, table: &str, _| {
            touched.touched(table)
        }))?;
    }
    Ok(())
}
