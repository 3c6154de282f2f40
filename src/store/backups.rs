//! The backup folder: the copies the server takes by itself or when an admin asks, listed
//! newest first, pruned to the newest N, and found by name for download.
//!
//! Names are `petstore-YYYY-MM-DD-HHMMSS.sqlite` (UTC). Only plain names of letters, digits,
//! `.`, `_` and `-` ending in `.sqlite` and not starting with `.` are ever listed or served,
//! and only regular files directly inside the folder, so no name can reach outside it.
//! Pruning removes only files this program named; a file an owner drops in stays.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chrono::{DateTime, Utc};

use super::backup::{backup, PARTIAL_SUFFIX};
use super::{files, Result, StoreError};

/// The start of the names of backups this program takes.
const PREFIX: &str = "petstore-";
/// The end of every backup's name.
const SUFFIX: &str = ".sqlite";
/// A temporary file older than this was left by a backup that died.
const STALE_PARTIAL: Duration = Duration::from_secs(3600);

/// One backup in the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupFile {
    pub name: String,
    pub size: u64,
    /// When the backup was finished (the file's modification time).
    pub created_at: DateTime<Utc>,
}

/// A folder of backups.
#[derive(Debug, Clone)]
pub struct BackupFolder {
    dir: PathBuf,
}

impl BackupFolder {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every backup, newest first. A folder that does not exist yet holds none.
    pub fn list(&self) -> Result<Vec<BackupFile>> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(err) => return Err(self.error("cannot read", err)),
        };
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| self.error("cannot read", e))?;
            let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
                continue;
            };
            if let Some(file) = self.describe(&name) {
                found.push(file);
            }
        }
        found.sort_by(|a, b| {
            b.created_at
                .cmp(&a.created_at)
                .then_with(|| b.name.cmp(&a.name))
        });
        Ok(found)
    }

    /// The backup called `name`, if it is one (see the module's rules on names).
    pub fn find(&self, name: &str) -> Option<(BackupFile, PathBuf)> {
        let file = self.describe(name)?;
        Some((file, self.dir.join(name)))
    }

    /// Copies the live store at `source` into the folder under a new name and answers it.
    pub fn take(&self, source: &Path) -> Result<BackupFile> {
        files::create_private_dir(&self.dir).map_err(|e| self.error("cannot create", e))?;
        self.remove_stale_partials();
        let stamp = Utc::now().format("%Y-%m-%d-%H%M%S").to_string();
        let mut name = format!("{PREFIX}{stamp}{SUFFIX}");
        let mut n = 2;
        while self.dir.join(&name).exists() {
            name = format!("{PREFIX}{stamp}-{n}{SUFFIX}");
            n += 1;
        }
        backup(source, &self.dir.join(&name))?;
        self.describe(&name).ok_or_else(|| {
            StoreError::Internal(format!("the backup {name} vanished as it was written"))
        })
    }

    /// Removes this program's backups beyond the newest `keep` and answers their names.
    pub fn prune(&self, keep: usize) -> Result<Vec<String>> {
        let mut removed = Vec::new();
        let ours = self
            .list()?
            .into_iter()
            .filter(|f| f.name.starts_with(PREFIX));
        for old in ours.skip(keep) {
            std::fs::remove_file(self.dir.join(&old.name))
                .map_err(|e| self.error("cannot remove a backup from", e))?;
            removed.push(old.name);
        }
        Ok(removed)
    }

    /// The newest backup's time, if there is one.
    pub fn newest(&self) -> Result<Option<DateTime<Utc>>> {
        Ok(self.list()?.first().map(|f| f.created_at))
    }

    fn describe(&self, name: &str) -> Option<BackupFile> {
        if !is_backup_name(name) {
            return None;
        }
        // symlink_metadata: a link is not followed out of the folder.
        let meta = std::fs::symlink_metadata(self.dir.join(name)).ok()?;
        if !meta.is_file() {
            return None;
        }
        let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        Some(BackupFile {
            name: name.to_owned(),
            size: meta.len(),
            created_at: DateTime::<Utc>::from(modified),
        })
    }

    /// Deletes temporary files of backups that died on the way (killed, power cut).
    fn remove_stale_partials(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if !(name.starts_with('.') && name.ends_with(PARTIAL_SUFFIX)) {
                continue;
            }
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|at| at.elapsed().ok())
                .is_some_and(|age| age > STALE_PARTIAL);
            if old {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    fn error(&self, what: &str, err: std::io::Error) -> StoreError {
        StoreError::Internal(format!(
            "{what} the backup folder {}: {err}",
            self.dir.display()
        ))
    }
}

/// Whether `name` may name a backup: a plain file name that cannot leave the folder.
pub fn is_backup_name(name: &str) -> bool {
    name.len() <= 128
        && name.len() > SUFFIX.len()
        && name.ends_with(SUFFIX)
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::is_backup_name;

    #[test]
    fn only_plain_sqlite_names_inside_the_folder_are_backup_names() {
        assert!(is_backup_name("petstore-2026-11-22-173500.sqlite"));
        assert!(is_backup_name("before-move.sqlite"));
        for bad in [
            "../store.sqlite",
            "..sqlite",
            ".hidden.sqlite",
            "a/b.sqlite",
            "a\\b.sqlite",
            "store.sqlite-wal",
            ".sqlite",
            "x.sqlite.1.partial",
            "",
            "caf\u{e9}.sqlite",
        ] {
            assert!(!is_backup_name(bad), "{bad:?} must not be a backup name");
        }
    }
}
