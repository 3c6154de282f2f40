//! `petstore restore FILE`: a backup put in place of the store, with every check first.
//!
//! In order: the file must be an SQLite database that passes `PRAGMA integrity_check`, hold a
//! pet store's tables, and carry a schema this program knows; it is copied beside the store
//! under a hidden name and brought up to this program's schema there, and that schema must
//! then be the one a freshly made store has (the same tables with the same columns, the same
//! indexes, and no trigger or view of its own: a crafted file cannot bring rules that rewrite
//! data later, or views in place of tables). A file that fails any check is refused before
//! anything changes. Then the current store is locked (the serving lock every
//! `petstore serve` holds, then SQLite's exclusive lock, which any open connection blocks): a
//! store that a server or the desktop app has open is refused. Holding the lock, the current
//! store is kept under a dated name beside it (a hard link: the same file under a second
//! name), and the checked copy is renamed over the store's name, which replaces it in one
//! step: at every instant there is a store under its name, whatever stops the restore.
//! Nothing is deleted. (On Windows, which cannot rename over an open file, SQLite's lock is
//! let go just before the rename; the serving lock is held throughout.)

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
    let store = super::Location::of(store).restored_file()?;
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
    migrate::run_sqlite(&mut conn).map_err(|e| {
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
    same_schema_as_a_new_store(&conn).map_err(|why| {
        refuse(format!(
            "{} is not a Pet Store backup this program can trust: {why}",
            file.display()
        ))
    })?;
    conn.close().map_err(|(_, e)| StoreError::from(e))?;
    files::sync_file(staged).map_err(|e| refuse(format!("{}: {e}", staged.display())))?;
    Ok(counts)
}

/// The schema of `conn`, as compared with a new store's: tables with their columns (name,
/// declared type, not null, primary key), indexes with their table, columns and uniqueness,
/// and triggers and views with their whole SQL. SQLite's own tables are left out.
fn schema(conn: &Connection) -> rusqlite::Result<std::collections::BTreeMap<String, String>> {
    let objects: Vec<(String, String, String, Option<String>)> = conn
        .prepare(
            "SELECT type, name, tbl_name, sql FROM sqlite_master
             WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut shape = std::collections::BTreeMap::new();
    for (kind, name, table, sql) in objects {
        let described = match kind.as_str() {
            "table" => conn
                .prepare("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1)")?
                .query_map([&name], |r| {
                    Ok(format!(
                        "{} {} {} {}",
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?.to_ascii_uppercase(),
                        r.get::<_, i64>(2)?,
                        r.get::<_, i64>(3)?
                    ))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?
                .join(", "),
            "index" => {
                let unique = sql.as_deref().is_some_and(|sql| {
                    sql.trim_start()
                        .to_ascii_uppercase()
                        .starts_with("CREATE UNIQUE")
                });
                let columns = conn
                    .prepare("SELECT COALESCE(name, '') FROM pragma_index_info(?1) ORDER BY seqno")?
                    .query_map([&name], |r| r.get::<_, String>(0))?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                format!("on {table} ({}) unique {unique}", columns.join(", "))
            }
            _ => sql.unwrap_or_default(),
        };
        shape.insert(format!("{kind} {name}"), described);
    }
    Ok(shape)
}

/// Refuses (saying what differs) a staged store whose schema is not a new store's.
fn same_schema_as_a_new_store(staged: &Connection) -> std::result::Result<(), String> {
    let mut fresh = Connection::open_in_memory().map_err(|e| e.to_string())?;
    migrate::run_sqlite(&mut fresh).map_err(|e| e.to_string())?;
    let want = schema(&fresh).map_err(|e| e.to_string())?;
    let mut have = schema(staged).map_err(|e| format!("its schema cannot be read ({e})"))?;
    // A store made by an early schema and brought up to date lacks indexes added to a
    // migration after it ran (as the same store upgraded in place would): they are made here
    // from a new store's own SQL. Nothing else is added.
    let missing_indexes: Vec<String> = want
        .keys()
        .filter(|o| o.starts_with("index ") && !have.contains_key(*o))
        .map(|o| o["index ".len()..].to_owned())
        .collect();
    for index in &missing_indexes {
        let (table, sql): (String, Option<String>) = fresh
            .query_row(
                "SELECT tbl_name, sql FROM sqlite_master WHERE type = 'index' AND name = ?1",
                [index],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(|e| e.to_string())?;
        // On a missing table, the table is what is refused below.
        if let Some(sql) = sql.filter(|_| have.contains_key(&format!("table {table}"))) {
            staged
                .execute_batch(&sql)
                .map_err(|e| format!("its index {index} cannot be made ({e})"))?;
        }
    }
    if !missing_indexes.is_empty() {
        have = schema(staged).map_err(|e| format!("its schema cannot be read ({e})"))?;
    }
    let mut problems = Vec::new();
    for (object, shape) in &have {
        match want.get(object) {
            None => problems.push(format!("it has a {object} that a store does not have")),
            Some(wanted) if wanted != shape => problems.push(format!("its {object} differs")),
            Some(_) => {}
        }
    }
    for object in want.keys().filter(|o| !have.contains_key(*o)) {
        problems.push(format!("it has no {object}"));
    }
    if problems.is_empty() {
        return Ok(());
    }
    let more = problems.len().saturating_sub(3);
    problems.truncate(3);
    let mut why = problems.join("; ");
    if more > 0 {
        why.push_str(&format!("; and {more} more"));
    }
    Err(why)
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
    let (serving, sqlite) = lock_store(store)?;
    // Windows renames nothing over a file that is open (SQLite opens the store without
    // FILE_SHARE_DELETE), so there SQLite's lock is let go first, the store's writes all in
    // its main file by then. The serving lock still keeps every petstore out; a file that
    // another program holds open makes the rename fail, which is refused with nothing changed.
    let sqlite = if cfg!(windows) {
        drop(sqlite);
        None
    } else {
        Some(sqlite)
    };
    let kept = kept_name(store);
    // The store under a second name first, so it is never without one; then the checked copy
    // replaces the store's name in one rename.
    std::fs::hard_link(store, &kept)
        .map_err(|e| refuse(format!("cannot keep {} aside: {e}", store.display())))?;
    files::sync_dir(dir).map_err(|e| refuse(format!("{}: {e}", dir.display())))?;
    if let Err(e) = std::fs::rename(staged, store) {
        let _ = std::fs::remove_file(&kept);
        return Err(refuse(format!(
            "cannot put the backup in place of {}: {e}",
            store.display()
        )));
    }
    files::sync_dir(dir).map_err(|e| refuse(format!("{}: {e}", dir.display())))?;
    drop((serving, sqlite));
    // The replaced store left WAL mode under the lock, so these belong to no store now.
    for leftover in ["-wal", "-shm", "-journal"] {
        let mut side = store.as_os_str().to_owned();
        side.push(leftover);
        let _ = std::fs::remove_file(PathBuf::from(side));
    }
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

/// The copies earlier restores kept of the store at `store` (`store.before-restore-*.sqlite`).
pub(super) fn kept_copies(store: &Path) -> Vec<PathBuf> {
    let (stem, ext) = stem_and_ext(store);
    let prefix = format!("{stem}.before-restore-");
    let Ok(entries) = std::fs::read_dir(files::parent_of(store)) else {
        return Vec::new();
    };
    let mut kept: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(&prefix) && name.ends_with(&ext)
        })
        .map(|e| e.path())
        .collect();
    kept.sort();
    kept
}

fn stem_and_ext(store: &Path) -> (String, String) {
    let stem = store
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "store".into());
    let ext = store
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (stem, ext)
}

/// `store.sqlite` → `store.before-restore-2026-11-22-173500.sqlite`, beside it.
fn kept_name(store: &Path) -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y-%m-%d-%H%M%S");
    let (stem, ext) = stem_and_ext(store);
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
