//! A consistent copy of a live store, through SQLite's online backup API, that is never
//! seen half-written.
//!
//! The copy is written to a hidden temporary name beside its destination (`.NAME.PID.partial`,
//! readable by this user only), taken in one step inside one read transaction (so it holds
//! exactly what was committed when it started), switched out of WAL so it is one
//! self-contained file, checked with `PRAGMA integrity_check`, synced, and only then given its
//! final name (a link that refuses to replace an existing file, then the folder is synced). A
//! copy killed at any moment leaves at most a `.partial` file, never a file under the final
//! name.

use std::io;
use std::path::{Path, PathBuf};

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use super::files;
use super::{connection, Result, StoreError};

/// The end of every temporary backup name.
pub const PARTIAL_SUFFIX: &str = ".partial";

/// Copies the store at `source` to `dest` (which must not exist yet) while the store keeps
/// serving: every order acknowledged before the copy started is in it.
pub fn backup(source: &Path, dest: &Path) -> Result<()> {
    let source = super::Location::of(source).backed_up_file()?;
    super::files::refuse_device_name(dest).map_err(|e| StoreError::Internal(e.to_string()))?;
    if dest.exists() {
        return Err(StoreError::Internal(format!(
            "{} already exists; choose a new file name",
            dest.display()
        )));
    }
    if !source.exists() {
        return Err(StoreError::Internal(format!(
            "there is no store at {}",
            source.display()
        )));
    }
    let temp = partial_name(dest)?;
    let _ = std::fs::remove_file(&temp);
    if let Err(err) = write_checked(source, &temp) {
        let _ = std::fs::remove_file(&temp);
        return Err(err);
    }
    if let Err(err) = put_in_place(&temp, dest) {
        let _ = std::fs::remove_file(&temp);
        return Err(StoreError::Internal(format!(
            "cannot name the backup {}: {err}",
            dest.display()
        )));
    }
    files::sync_dir(files::parent_of(dest)).map_err(|e| io_error(dest, e))?;
    Ok(())
}

/// The hidden temporary name a backup to `dest` is written under.
fn partial_name(dest: &Path) -> Result<PathBuf> {
    let name = dest
        .file_name()
        .ok_or_else(|| StoreError::Internal(format!("{} is not a file name", dest.display())))?
        .to_string_lossy();
    Ok(files::parent_of(dest).join(format!(".{name}.{}{PARTIAL_SUFFIX}", std::process::id())))
}

/// Writes the copy to `temp` (owner-only), checks it and syncs it.
fn write_checked(source: &Path, temp: &Path) -> Result<()> {
    files::create_private_file(temp).map_err(|e| io_error(temp, e))?;
    let src = Connection::open_with_flags(source, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    src.busy_timeout(connection::BUSY_TIMEOUT)?;
    let mut dst = Connection::open(temp)?;
    {
        let backup = Backup::new(&src, &mut dst)?;
        match backup.step(-1)? {
            StepResult::Done => {}
            other => {
                return Err(StoreError::Internal(format!(
                    "the backup did not finish: {other:?}"
                )));
            }
        }
    }
    drop(src);
    // One self-contained file: no -wal beside it to lose on the way to a USB stick.
    dst.pragma_update(None, "journal_mode", "DELETE")?;
    check_integrity(&dst).map_err(|problem| {
        StoreError::Internal(format!("the copy fails its integrity check: {problem}"))
    })?;
    dst.close().map_err(|(_, e)| StoreError::from(e))?;
    files::sync_file(temp).map_err(|e| io_error(temp, e))?;
    Ok(())
}

/// `PRAGMA integrity_check` on `conn`: `Ok` when it answers `ok`, else the first problem.
pub fn check_integrity(conn: &Connection) -> std::result::Result<(), String> {
    let answer: rusqlite::Result<String> =
        conn.query_row("PRAGMA integrity_check", [], |row| row.get(0));
    match answer {
        Ok(answer) if answer == "ok" => Ok(()),
        Ok(problem) => Err(problem),
        Err(err) => Err(err.to_string()),
    }
}

/// Gives `temp` the name `dest` without ever replacing a file already there.
fn put_in_place(temp: &Path, dest: &Path) -> io::Result<()> {
    match std::fs::hard_link(temp, dest) {
        Ok(()) => std::fs::remove_file(temp),
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => Err(err),
        // File systems without links (FAT on a USB stick): check, then rename.
        Err(_) if dest.exists() => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "a file with that name appeared meanwhile",
        )),
        Err(_) => std::fs::rename(temp, dest),
    }
}

fn io_error(path: &Path, err: io::Error) -> StoreError {
    StoreError::Internal(format!("{}: {err}", path.display()))
}
