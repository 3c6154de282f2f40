//! The backup folder: the copies the server takes by itself or when an admin asks, listed
//! newest first, pruned to the newest N, and found by name for download.
//!
//! Names are `petstore-YYYY-MM-DD-HHMMSS.sqlite` for scheduled backups and
//! `petstore-manual-YYYY-MM-DD-HHMMSS.sqlite` for the ones an admin asks for (UTC, with `-N`
//! before `.sqlite` when two fall in one second). Only plain names of letters, digits, `.`,
//! `_` and `-` ending in `.sqlite` and not starting with `.` are ever listed or served, and
//! only regular files directly inside the folder, so no name can reach outside it.
//!
//! Pruning keeps the newest N of each kind apart, so a row of manual backups never pushes
//! the scheduled history out. It removes only files whose whole name is one of the two
//! patterns above, and never the store itself (when the folder is the store's own and the
//! store happens to be named like a backup): a file an owner drops in stays.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use chrono::{DateTime, Utc};

use super::backup::{backup, PARTIAL_SUFFIX};
use super::{files, Result, StoreError};

/// The start of the names of backups this program takes.
const PREFIX: &str = "petstore-";
/// What follows [`PREFIX`] in the names of backups an admin asked for.
const MANUAL: &str = "manual-";
/// The end of every backup's name.
const SUFFIX: &str = ".sqlite";
/// A temporary file older than this was left by a backup that died.
const STALE_PARTIAL: Duration = Duration::from_secs(3600);

/// Why a backup was taken: its name says so, and each kind is pruned on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackupKind {
    /// Taken by the schedule.
    Scheduled,
    /// Taken because an admin asked ("Back up now", `POST /admin/backups`).
    Manual,
}

impl BackupKind {
    fn prefix(self) -> String {
        match self {
            Self::Scheduled => PREFIX.to_owned(),
            Self::Manual => format!("{PREFIX}{MANUAL}"),
        }
    }

    /// The kind of backup this program names `name`, if it is one: the whole name must be
    /// the pattern, `petstore-[manual-]YYYY-MM-DD-HHMMSS[-N].sqlite`.
    pub fn of(name: &str) -> Option<Self> {
        let rest = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
        let (kind, stamp) = match rest.strip_prefix(MANUAL) {
            Some(stamp) => (Self::Manual, stamp),
            None => (Self::Scheduled, rest),
        };
        let (stamp, n) = match stamp.get(17..) {
            Some("") => (stamp, None),
            Some(tail) => (&stamp[..17], Some(tail.strip_prefix('-')?)),
            None => return None,
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let shape = stamp.len() == 17
            && stamp.bytes().enumerate().all(|(i, b)| match i {
                4 | 7 | 10 => b == b'-',
                _ => b.is_ascii_digit(),
            })
            && chrono::NaiveDateTime::parse_from_str(stamp, "%Y-%m-%d-%H%M%S").is_ok();
        (shape && n.is_none_or(digits)).then_some(kind)
    }
}

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

    /// Copies the live store at `source` into the folder under a new name of `kind` and
    /// answers it.
    pub fn take(&self, source: &Path, kind: BackupKind) -> Result<BackupFile> {
        files::create_private_dir(&self.dir).map_err(|e| self.error("cannot create", e))?;
        self.remove_stale_partials();
        let prefix = kind.prefix();
        let stamp = Utc::now().format("%Y-%m-%d-%H%M%S").to_string();
        let mut name = format!("{prefix}{stamp}{SUFFIX}");
        let mut n = 2;
        while self.dir.join(&name).exists() {
            name = format!("{prefix}{stamp}-{n}{SUFFIX}");
            n += 1;
        }
        backup(source, &self.dir.join(&name))?;
        self.describe(&name).ok_or_else(|| {
            StoreError::Internal(format!("the backup {name} vanished as it was written"))
        })
    }

    /// Removes this program's backups of `kind` beyond the newest `keep` and answers their
    /// names. Only names of exactly the kind's pattern count, and never the store at `store`.
    pub fn prune(&self, kind: BackupKind, keep: usize, store: &Path) -> Result<Vec<String>> {
        let mut removed = Vec::new();
        let store = std::fs::canonicalize(store).ok();
        let is_store = |name: &str| {
            store.is_some() && std::fs::canonicalize(self.dir.join(name)).ok() == store
        };
        let ours = self
            .list()?
            .into_iter()
            .filter(|f| BackupKind::of(&f.name) == Some(kind) && !is_store(&f.name));
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
            // SQLite's own journal of a copy that died is `….partial-journal`.
            let partial = name.ends_with(PARTIAL_SUFFIX)
                || name.ends_with(&format!("{PARTIAL_SUFFIX}-journal"));
            if !(name.starts_with('.') && partial) {
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
    use super::{is_backup_name, BackupKind};

    fn file(dir: &std::path::Path, name: &str, hours_old: u64) {
        let path = dir.join(name);
        std::fs::write(&path, name).unwrap();
        let at = std::time::SystemTime::now() - std::time::Duration::from_secs(hours_old * 3600);
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(at)
            .unwrap();
    }

    fn names(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn pruning_a_folder_shared_with_the_store_spares_the_store_and_the_owners_files() {
        let dir = tempfile::tempdir().unwrap();
        let folder = super::BackupFolder::new(dir.path());
        // The store, named like a scheduled backup and older than every backup; an owner's
        // copy named like one of ours; and another store's files beside them.
        let store = dir.path().join("petstore-2026-01-01-000000.sqlite");
        file(dir.path(), "petstore-2026-01-01-000000.sqlite", 900);
        file(dir.path(), "petstore-main.sqlite", 800);
        file(dir.path(), "petstore-before-move.sqlite", 700);
        file(dir.path(), "petstore-2026-11-20-100000.sqlite", 30);
        file(dir.path(), "petstore-2026-11-21-100000.sqlite", 20);
        file(dir.path(), "petstore-2026-11-22-100000.sqlite", 10);
        let removed = folder.prune(BackupKind::Scheduled, 1, &store).unwrap();
        assert_eq!(
            removed,
            [
                "petstore-2026-11-21-100000.sqlite",
                "petstore-2026-11-20-100000.sqlite"
            ]
        );
        assert_eq!(
            names(dir.path()),
            [
                "petstore-2026-01-01-000000.sqlite",
                "petstore-2026-11-22-100000.sqlite",
                "petstore-before-move.sqlite",
                "petstore-main.sqlite",
            ]
        );
    }

    #[test]
    fn a_backup_sweeps_the_old_partial_files_and_journals_of_copies_that_died() {
        let dir = tempfile::tempdir().unwrap();
        let folder = super::BackupFolder::new(dir.path());
        let store = dir.path().join("store.sqlite");
        rusqlite::Connection::open(&store)
            .unwrap()
            .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
            .unwrap();
        file(dir.path(), ".petstore-1.sqlite.99.partial", 2);
        file(dir.path(), ".petstore-1.sqlite.99.partial-journal", 2);
        file(dir.path(), ".petstore-2.sqlite.98.partial-journal", 0);
        folder.take(&store, BackupKind::Manual).unwrap();
        let left: Vec<String> = names(dir.path())
            .into_iter()
            .filter(|n| n.contains("partial"))
            .collect();
        assert_eq!(
            left,
            [".petstore-2.sqlite.98.partial-journal"],
            "a fresh one stays"
        );
    }

    #[test]
    fn manual_backups_are_pruned_apart_and_never_push_the_scheduled_ones_out() {
        let dir = tempfile::tempdir().unwrap();
        let folder = super::BackupFolder::new(dir.path());
        let store = dir.path().join("elsewhere.sqlite");
        file(dir.path(), "petstore-2026-11-19-100000.sqlite", 72);
        file(dir.path(), "petstore-2026-11-20-100000.sqlite", 48);
        for n in 0..5 {
            file(
                dir.path(),
                &format!("petstore-manual-2026-11-22-10000{n}.sqlite"),
                5 - n,
            );
        }
        let removed = folder.prune(BackupKind::Manual, 2, &store).unwrap();
        assert_eq!(removed.len(), 3, "{removed:?}");
        assert_eq!(
            names(dir.path()),
            [
                "petstore-2026-11-19-100000.sqlite",
                "petstore-2026-11-20-100000.sqlite",
                "petstore-manual-2026-11-22-100003.sqlite",
                "petstore-manual-2026-11-22-100004.sqlite",
            ]
        );
        assert!(folder
            .prune(BackupKind::Scheduled, 2, &store)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn only_whole_names_of_the_two_patterns_are_this_programs_backups() {
        use BackupKind::{Manual, Scheduled};
        for (name, kind) in [
            ("petstore-2026-11-22-173500.sqlite", Some(Scheduled)),
            ("petstore-2026-11-22-173500-2.sqlite", Some(Scheduled)),
            ("petstore-manual-2026-11-22-173500.sqlite", Some(Manual)),
            ("petstore-manual-2026-11-22-173500-13.sqlite", Some(Manual)),
            ("petstore-main.sqlite", None),
            ("petstore-before-move.sqlite", None),
            ("petstore-2026-11-22-173500-copy.sqlite", None),
            ("petstore-2026-11-22-173500-.sqlite", None),
            ("petstore-2026-13-22-173500.sqlite", None),
            ("petstore-2026-11-22-1735.sqlite", None),
            ("petstore-manual-.sqlite", None),
            ("store.before-restore-2026-11-22-173500.sqlite", None),
            ("petstore-2026-11-22-173500.sqlite-wal", None),
        ] {
            assert_eq!(BackupKind::of(name), kind, "{name}");
        }
    }

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
