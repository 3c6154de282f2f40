//! What is checked before a store is used: the folder and file are private to this user, a
//! store is never made new where a restore kept an earlier one (a store was expected there),
//! only one serving petstore has the store open, and the file is a pet store this program can
//! write. A refusal is one plain sentence naming the file (the program prints it and exits).
//!
//! The lock is an exclusive `flock` on `<store>.lock` beside the store, held until the store
//! closes (or the process ends). The store file itself is never opened outside SQLite: closing
//! any other descriptor of it would drop SQLite's own locks.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, ErrorCode};

use super::{Result, StoreError};

/// `PRAGMA application_id` of a pet store ("PETS").
pub const APPLICATION_ID: i64 = 0x5045_5453;

/// A refusal, as one line (SQLite's own messages can span several).
fn refuse(message: String) -> StoreError {
    StoreError::Refused(message.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Creates the store's folder (0700) and an empty file (0600) if they do not exist yet.
pub fn prepare(path: &Path) -> Result<()> {
    super::files::refuse_device_name(path).map_err(|e| refuse(e.to_string()))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.exists() {
            let mut builder = std::fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder
                .create(dir)
                .map_err(|e| refuse(format!("cannot create the folder {}: {e}", dir.display())))?;
        }
    }
    if !path.exists() {
        // A store that was there before a restore: never start an empty one in its place.
        if let Some(kept) = super::restore::kept_copies(path).last() {
            return Err(refuse(format!(
                "there is no store at {}, but {} beside it was kept by a restore: a store was \
                 expected here. Put that file back as {} (or restore a backup), then start again",
                path.display(),
                kept.display(),
                path.display()
            )));
        }
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(refuse(format!(
                    "cannot create the store file {}: {e}",
                    path.display()
                )))
            }
        }
    }
    Ok(())
}

/// Takes away the group's and others' access to the store and its SQLite side files, which
/// an earlier copy or an owner's `chmod` may have given; says so once per file. Called once
/// the file has passed [`check`]: another program's file is refused, never changed.
pub fn make_private(path: &Path) {
    // Windows: the files take their folder's ACL (see `files`); nothing to take away here.
    #[cfg(not(unix))]
    let _ = path;
    #[cfg(unix)]
    for side in ["", "-wal", "-shm"] {
        use std::os::unix::fs::PermissionsExt;
        let mut name = path.as_os_str().to_owned();
        name.push(side);
        let file = PathBuf::from(name);
        let Ok(meta) = std::fs::metadata(&file) else {
            continue;
        };
        let mode = meta.permissions().mode();
        if mode & 0o077 != 0 {
            let private = std::fs::Permissions::from_mode(mode & 0o700);
            match std::fs::set_permissions(&file, private) {
                Ok(()) => tracing::warn!(
                    file = %file.display(),
                    was = format!("{:o}", mode & 0o777),
                    "the store file was readable by others; it is now private to this user"
                ),
                Err(err) => tracing::warn!(
                    file = %file.display(),
                    %err,
                    "the store file is readable by others and cannot be made private"
                ),
            }
        }
    }
}

/// The lock file of the store at `path`.
fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the store's exclusive lock, or refuses if another petstore holds it.
pub fn lock(path: &Path) -> Result<File> {
    let lock_path = lock_path(path);
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(&lock_path).map_err(|e| match e.kind() {
        std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied => {
            refuse(format!(
                "the store's folder {} is read-only; petstore needs to write there ({e})",
                lock_path.parent().unwrap_or(Path::new(".")).display()
            ))
        }
        _ => refuse(format!(
            "cannot open the lock file {}: {e}",
            lock_path.display()
        )),
    })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(refuse(format!(
            "this store is already open by another petstore ({})",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => {
            // A file system without locks: serve, but say so.
            tracing::warn!(%e, "cannot lock {}; make sure only one petstore serves this store", lock_path.display());
            Ok(file)
        }
    }
}

/// Explains an error met while opening or checking the store file.
pub fn explain(path: &Path, err: StoreError) -> StoreError {
    let file = path.display();
    if let StoreError::Unavailable(why) = &err {
        return refuse(format!(
            "cannot write to the store file {file} ({why}); free some disk space and start again"
        ));
    }
    if let StoreError::Busy = &err {
        return refuse(format!(
            "the store file {file} is locked by another program; close it and start again"
        ));
    }
    if let StoreError::Internal(_) | StoreError::NewerSchema { .. } = &err {
        return refuse(format!("cannot use the store file {file}: {err}"));
    }
    let StoreError::Sqlite(sqlite) = &err else {
        return err;
    };
    match sqlite.sqlite_error_code() {
        Some(ErrorCode::ReadOnly) => refuse(format!(
            "the store file {file} is read-only; petstore needs to write to it and its folder (check their permissions)"
        )),
        Some(ErrorCode::NotADatabase) => refuse(format!(
            "{file} is not a pet store: it is not a SQLite database (or its first page is damaged)"
        )),
        Some(ErrorCode::DatabaseCorrupt) => refuse(format!(
            "the store file {file} is damaged ({sqlite}); restore it from a backup"
        )),
        Some(ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => refuse(format!(
            "cannot open the store file {file} ({sqlite}); check it and its folder's permissions"
        )),
        _ => refuse(format!("cannot use the store file {file}: {sqlite}")),
    }
}

/// Checks that the open file is a pet store (or empty), undamaged and writable, and marks
/// it as a pet store.
pub fn check(conn: &Connection, path: &Path) -> Result<()> {
    let file = path.display();
    let app_id: i64 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
    let tables: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let ours = app_id == APPLICATION_ID
        || (app_id == 0 && (tables.is_empty() || tables.iter().any(|t| t == "schema_migrations")));
    if !ours {
        return Err(refuse(format!(
            "{file} is not a pet store: it is a SQLite database of another program"
        )));
    }
    let verdict: String = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0))?;
    if verdict != "ok" {
        return Err(refuse(format!(
            "the store file {file} is damaged ({verdict}); restore it from a backup"
        )));
    }
    if conn.is_readonly(rusqlite::MAIN_DB)? {
        return Err(refuse(format!(
            "the store file {file} is read-only; petstore needs to write to it (check its permissions)"
        )));
    }
    // A real write: marks the file as a pet store and proves the disk takes writes.
    if app_id != APPLICATION_ID {
        conn.pragma_update(None, "application_id", APPLICATION_ID)?;
    }
    Ok(())
}
