//! Everything about the store that depends on its engine, SQLite or PostgreSQL, outside the
//! SQL itself. The SQL of each operation is written once (see `dialect`), over one connection
//! seam (`db`, `pg`); no other store file, and nothing outside the store, branches on the
//! engine. What differs is here:
//!
//! - **Where the store is** ([`Location`], from `--db`): a file or a database URL, how it is
//!   shown in logs (no password), where the store's own files go, and whether petstore backs
//!   it up and restores it (a file) or leaves that to pg_dump and pg_restore.
//! - **Opening** ([`opening`]): the writer, readers and event delivery each engine needs, the
//!   file's checks and lock on SQLite, waiting for the database server on PostgreSQL.
//! - **Migrations** ([`migrating`]): the lock one process migrates under, the table that
//!   records them, and how one step runs, for the one runner in `migrate`.
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

pub(super) mod migrating;
mod opening;
pub(super) mod postgres_follower;
pub(super) mod wal;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::db::{Connection, DbResult};
use super::dialect;
use super::pages::Pages;
use super::{Result, Store};

/// Where a store is kept, as `--db` names it: a SQLite file, or a PostgreSQL database (a
/// `postgres://` or `postgresql://` URL). Whatever about a store depends on its engine
/// outside the SQL (opening it, its own files, its backups) is asked of this.
#[derive(Debug, Clone, Copy)]
pub enum Location<'p> {
    Sqlite(&'p Path),
    Postgres(&'p str),
}

impl<'p> Location<'p> {
    /// The engine of the store at `path`.
    pub fn of(path: &'p Path) -> Self {
        match path
            .to_str()
            .filter(|p| p.starts_with("postgres://") || p.starts_with("postgresql://"))
        {
            Some(url) => Self::Postgres(url),
            None => Self::Sqlite(path),
        }
    }

    /// The file the store is kept in; `None` for a PostgreSQL database.
    pub fn file(self) -> Option<&'p Path> {
        match self {
            Self::Sqlite(path) => Some(path),
            Self::Postgres(_) => None,
        }
    }

    /// The folder for the store's own files (backups, certificate): the one holding the
    /// store's file; for a PostgreSQL store, this user's data folder (or the current folder
    /// when the system names none).
    pub fn files_parent(self) -> PathBuf {
        match self {
            Self::Sqlite(path) => super::files::parent_of(path).to_owned(),
            Self::Postgres(_) => crate::data_folder::folder().unwrap_or_else(|| PathBuf::from(".")),
        }
    }

    /// The store's file, which petstore backs up; a PostgreSQL store is refused, saying
    /// which tools back it up.
    pub fn backed_up_file(self) -> Result<&'p Path> {
        match self {
            Self::Sqlite(path) => Ok(path),
            Self::Postgres(_) => Err(crate::domain::DomainError::Conflict(
                "this store is a PostgreSQL database: back it up with pg_dump (and restore with pg_restore)".into(),
            )
            .into()),
        }
    }

    /// The store's file, which petstore restores a backup over; a PostgreSQL store is
    /// refused, saying which tools restore it.
    pub fn restored_file(self) -> Result<&'p Path> {
        match self {
            Self::Sqlite(path) => Ok(path),
            Self::Postgres(_) => Err(crate::domain::DomainError::Conflict(
                "this store is a PostgreSQL database: restore it with pg_restore (from a pg_dump backup)".into(),
            )
            .into()),
        }
    }

    /// The store's location as it may be printed or logged: a file's path, or a PostgreSQL
    /// URL with its password (and any `password=` parameter) replaced by `***`.
    pub fn shown(self) -> String {
        let url = match self {
            Self::Sqlite(path) => return path.display().to_string(),
            Self::Postgres(url) => url,
        };

        let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
        let end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(end);
        let authority = match authority.rsplit_once('@') {
            Some((user_info, host)) => match user_info.split_once(':') {
                Some((user, _password)) => format!("{user}:***@{host}"),
                None => authority.to_owned(),
            },
            None => authority.to_owned(),
        };
        let tail = match tail.split_once('?') {
            Some((path, query)) => {
                let query: Vec<String> = query
                    .split('&')
                    .map(|pair| match pair.split_once('=') {
                        Some((name, _)) if name.eq_ignore_ascii_case("password") => {
                            format!("{name}=***")
                        }
                        _ => pair.to_owned(),
                    })
                    .collect();
                format!("{path}?{}", query.join("&"))
            }
            None => tail.to_owned(),
        };
        format!("{scheme}://{authority}{tail}")
    }

    /// Opens (creating if need be) the store and brings its schema up to date; `exclusive`
    /// for serving (see `opening`).
    pub(super) fn open(self, exclusive: bool) -> Result<Store> {
        match self {
            Self::Sqlite(path) => opening::sqlite(path, exclusive),
            Self::Postgres(url) => opening::postgres(url, &self.shown(), exclusive),
        }
    }
}

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

/// Where SQLite keeps a savepoint's undo pages from the next transaction on: in memory
/// however many there are (`in_memory`), or in one buffer of up to 120 KiB that moves to a
/// temporary file past that (see `writer::group`). PostgreSQL has no such choice.
pub(super) fn keep_undo_in_memory(conn: &Connection, in_memory: bool) -> DbResult<()> {
    match conn.lite() {
        Some(_) if in_memory => run_cached(conn, "PRAGMA temp_store = MEMORY"),
        Some(_) => run_cached(conn, "PRAGMA temp_store = FILE"),
        None => Ok(()),
    }
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
