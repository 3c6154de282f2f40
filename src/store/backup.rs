//! A consistent copy of a live store, through SQLite's online backup API.

use std::path::Path;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use super::{connection, Result, StoreError};

/// Copies the store at `source` to `dest` (which must not exist yet) while the store keeps
/// serving. The copy is taken in one step, inside one read transaction, so it holds exactly
/// what was committed when it started: every order acknowledged before then.
pub fn backup(source: &Path, dest: &Path) -> Result<()> {
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
    let src = Connection::open_with_flags(source, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    src.busy_timeout(connection::BUSY_TIMEOUT)?;
    let mut dst = Connection::open(dest)?;
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
    let check: String = dst.query_row("PRAGMA integrity_check", [], |row| row.get(0))?;
    if check != "ok" {
        return Err(StoreError::Internal(format!(
            "the copy fails its integrity check: {check}"
        )));
    }
    dst.pragma_update(None, "journal_mode", "DELETE")?;
    Ok(())
}
