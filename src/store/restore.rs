//! `petstore restore FILE`: a backup put in place of the store, with every check first.
//!
//! In order: the file must be an SQLite database that passes `PRAGMA integrity_check`, hold a
//! pet store's tables, and carry a schema this program knows; it is copied beside the store
//! under a hidden name and brought up to this program's schema there (so a file that cannot
//! be migrated is refused before anything changes). Then the current store is locked (the
//! serving lock every `petstore serve` holds, then SQLite's exclusive lock, which any open
//! connection blocks): a store that a server or the desktop app has open is refused. Holding the lock, the current store is renamed to a dated name beside it and the
//! checked copy takes its name. Nothing is deleted.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::backup::{backup, check_integrity};
use super::{files, migrate, startup, Result, StoreError};

/// The tables every pet store has had since its first schema.
const PET_STORE_TABLES: &[&str] = &[
    "schema_migrations",
    "categories",
    "pets",
    "inventory",
    "orders",
    "stock_changes",
    "api_keys",
];

/// What a restore did.
#[derive(Debug, Clone)]
pub struct Restored {
    /// The store file now holding the backup.
    pub store: PathBuf,
    /// Where the store it replaced was kept (`None` when there was no store).
    pub kept: Option<PathBuf>,
    /// The backup's schema version, before it was brought up to date.
    pub schema_version: i64,
    pub pets: i64,
    pub categories: i64,
    pub orders: i64,
}

/// Puts the backup `file` in place of the store at `store`; see the module's steps.
pub fn restore(store: &Path, file: &Path) -> Result<Restored> {
    if super::is_postgres(store) {
        return Err(crate::domain::DomainError::Conflict(
            "this store is a PostgreSQL database: restore it with pg_restore (from a pg_dump backup)".into(),
        )
        .into());
    }
    let meta = std::fs::metadata(file)
        .map_err(|e| refuse(format!("cannot read {}: {e}", file.display())))?;
    if !meta.is_file() {
        return Err(refuse(format!("{} is not a file", file.display())));
    }
    if same_file(store, file) {
        return Err(refuse(format!(
            "{} is the store itself; name a backup file",
            file.display()
        )));
    }
    let schema_version = inspect(file)?;
    let dir = files::parent_of(store);
    files::create_private_dir(dir)
        .map_err(|e| refuse(format!("cannot create {}: {e}", dir.display())))?;
    let name = store
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "store.sqlite".into());
    let staged = dir.join(format!(".{name}.restore-{}", std::process::id()));
    let _ = std::fs::remove_file(&staged);
    let result = stage(file, &staged).and_then(|counts| swap(store, &staged).map(|k| (counts, k)));
    let _ = std::fs::remove_file(&staged);
    let ((pets, categories, orders), kept) = result?;
    Ok(Restored {
        store: store.to_owned(),
        kept,
        schema_version,
        pets,
        categories,
        orders,
    })
}

/// Checks the backup where it is (read-only) and answers its schema version.
fn inspect(file: &Path) -> Result<i64> {
    let not_ours = |why: &str| {
        refuse(format!(
            "{} is not a Pet Store backup: {why}",
            file.display()
        ))
    };
    let conn = Connection::open_with_flags(file, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .map_err(|_| not_ours("it cannot be opened as a database"))?;
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut stmt| {
            stmt.query_map([], |row| row.get(0))?
                .collect::<rusqlite::Result<_>>()
        })
        .map_err(|_| not_ours("it is not an SQLite database"))?;
    check_integrity(&conn).map_err(|problem| {
        refuse(format!(
            "{} is damaged (integrity check: {problem}); try an older backup",
            file.display()
        ))
    })?;
    let missing: Vec<&str> = PET_STORE_TABLES
        .iter()
        .copied()
        .filter(|t| !tables.iter().any(|have| have == t))
        .collect();
    if !missing.is_empty() {
        return Err(not_ours(&format!("it has no {} table", missing.join(", "))));
    }
    let version: i64 = conn
        .query_row(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            [],
            |row| row.get(0),
        )
        .map_err(|_| not_ours("its schema version cannot be read"))?;
    let newest = migrate::newest();
    if version < 1 {
        return Err(not_ours("it records no schema version"));
    }
    if version > newest {
        return Err(refuse(format!(
            "{} was made by a newer petstore (schema {version}; this program knows up to {newest}); restore it with that version",
            file.display()
        )));
    }
    Ok(version)
}

/// Copies the backup to `staged`, brings it up to this program's schema and counts it.
fn stage(file: &Path, staged: &Path) -> Result<(i64, i64, i64)> {
    backup(file, staged)?;
    let mut conn = Connection::open(staged)?;
    migrate::run(&mut conn).map_err(|e| {
        refuse(format!(
            "{} cannot be brought up to this program's schema: {e}",
            file.display()
        ))
    })?;
    let count = |table: &str| -> Result<i64> {
        Ok(
            conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |row| {
                row.get(0)
            })?,
        )
    };
    let counts = (count("pets")?, count("categories")?, count("orders")?);
    conn.close().map_err(|(_, e)| StoreError::from(e))?;
    files::sync_file(staged).map_err(|e| refuse(format!("{}: {e}", staged.display())))?;
    Ok(counts)
}

/// Locks the current store (refusing if a server has it open), keeps it under a dated name
/// and puts `staged` in its place.
fn swap(store: &Path, staged: &Path) -> Result<Option<PathBuf>> {
    let dir = files::parent_of(store);
    if !store.exists() {
        std::fs::rename(staged, store)
            .map_err(|e| refuse(format!("cannot create {}: {e}", store.display())))?;
        files::sync_dir(dir).map_err(|e| refuse(format!("{}: {e}", dir.display())))?;
        return Ok(None);
    }
    let lock = lock_store(store)?;
    let kept = kept_name(store);
    std::fs::rename(store, &kept)
        .map_err(|e| refuse(format!("cannot move {} aside: {e}", store.display())))?;
    for leftover in ["-wal", "-shm", "-journal"] {
        let mut side = store.as_os_str().to_owned();
        side.push(leftover);
        let _ = std::fs::remove_file(PathBuf::from(side));
    }
    if let Err(e) = std::fs::rename(staged, store) {
        // Put the old store back rather than leave the shop without one.
        let _ = std::fs::rename(&kept, store);
        return Err(refuse(format!(
            "cannot put the backup in place of {}: {e}",
            store.display()
        )));
    }
    files::sync_dir(dir).map_err(|e| refuse(format!("{}: {e}", dir.display())))?;
    drop(lock);
    Ok(Some(kept))
}

/// The serving lock and an exclusive SQLite lock on the store, which only succeed when no
/// other program has it open. Leaving WAL mode needs every other connection closed; the store's writes are all in its
/// main file afterwards, so the kept copy is complete by itself.
fn lock_store(store: &Path) -> Result<(std::fs::File, Connection)> {
    let in_use = || {
        refuse(format!(
            "the store {} is open in a running petstore (the server or the desktop app); stop it first, then restore again",
            store.display()
        ))
    };
    // The lock every serving petstore holds; then SQLite's own, which any other program
    // that has the file open also blocks.
    let serving = startup::lock(store).map_err(|_| in_use())?;
    let conn = Connection::open(store)?;
    conn.busy_timeout(std::time::Duration::ZERO)?;
    let mode: String = conn
        .query_row("PRAGMA journal_mode = DELETE", [], |row| row.get(0))
        .map_err(|e| match StoreError::from(e) {
            StoreError::Busy => in_use(),
            other => other,
        })?;
    if !mode.eq_ignore_ascii_case("delete") {
        return Err(in_use());
    }
    conn.execute_batch("BEGIN EXCLUSIVE")
        .map_err(|e| match StoreError::from(e) {
            StoreError::Busy => in_use(),
            other => other,
        })?;
    Ok((serving, conn))
}

/// `store.sqlite` → `store.before-restore-2026-11-22-173500.sqlite`, beside it.
fn kept_name(store: &Path) -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y-%m-%d-%H%M%S");
    let stem = store
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "store".into());
    let ext = store
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    let dir = files::parent_of(store);
    let mut kept = dir.join(format!("{stem}.before-restore-{stamp}{ext}"));
    let mut n = 2;
    while kept.exists() {
        kept = dir.join(format!("{stem}.before-restore-{stamp}-{n}{ext}"));
        n += 1;
    }
    kept
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn refuse(message: String) -> StoreError {
    StoreError::Refused(message)
}
