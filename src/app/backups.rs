//! The store's backups as a job of the running application: taken by themselves on a
//! schedule, taken now when an admin asks, listed, and pruned to the newest N.
//!
//! One thread sleeps until the next backup is due. At start the next one is due `every` after
//! the newest backup in the folder (so a counter PC switched off every night still gets its
//! daily backup), or, with none there yet, after `every` or one hour of running, whichever is
//! sooner. After each scheduled backup the next is `every` later; a failed one is retried
//! after a few minutes. Backups of one process never run at the same time; each is followed by
//! pruning of its own kind: the newest `keep` scheduled backups and, apart from them, the
//! newest `keep` taken on request, so "Back up now" clicked many times never removes the
//! scheduled history. The copies come from their own read-only connection, so serving goes on.

use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::settings::BackupSettings;
use crate::store::{BackupFile, BackupFolder, BackupKind, StoreError};

/// The first backup of a store that has none is taken after at most this much running.
const FIRST_BACKUP_WITHIN: Duration = Duration::from_secs(3600);
/// A scheduled backup that failed is tried again after this long (or `every`, if sooner).
const RETRY_AFTER: Duration = Duration::from_secs(300);

/// Backups of one store; cheap to clone.
#[derive(Clone)]
pub struct Backups {
    inner: Arc<Inner>,
}

struct Inner {
    store: PathBuf,
    folder: BackupFolder,
    settings: BackupSettings,
    /// Held while a backup is written, so one process writes one at a time.
    taking: Mutex<()>,
    schedule: Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
}

impl Backups {
    /// Backups of the store at `store`, as `settings` say (the schedule is not started).
    pub fn new(store: PathBuf, settings: BackupSettings) -> Self {
        Self {
            inner: Arc::new(Inner {
                folder: BackupFolder::new(settings.dir.clone()),
                store,
                settings,
                taking: Mutex::new(()),
                schedule: Mutex::new(None),
            }),
        }
    }

    pub fn settings(&self) -> &BackupSettings {
        &self.inner.settings
    }

    /// Every backup in the folder, newest first. Blocks on the file system.
    pub fn list(&self) -> Result<Vec<BackupFile>, StoreError> {
        self.inner.folder.list()
    }

    /// The backup called `name` and its path; `None` for any name that is not one.
    pub fn find(&self, name: &str) -> Option<(BackupFile, PathBuf)> {
        self.inner.folder.find(name)
    }

    /// Takes a backup of `kind` now, then prunes that kind to the kept count. Blocks until
    /// the copy is written, checked and synced.
    pub fn take(&self, kind: BackupKind) -> Result<BackupFile, StoreError> {
        // The same refusal as `petstore backup` for a store petstore does not back up,
        // before any folder is made.
        crate::store::Location::of(&self.inner.store).backed_up_file()?;
        let _one_at_a_time = self.inner.taking.lock().unwrap_or_else(|e| e.into_inner());
        let taken = self.inner.folder.take(&self.inner.store, kind)?;
        tracing::info!(name = %taken.name, size = taken.size, "backup taken");
        let keep = self.inner.settings.keep;
        match self.inner.folder.prune(kind, keep, &self.inner.store) {
            Ok(removed) if !removed.is_empty() => {
                tracing::info!(?removed, "old backups removed");
            }
            Ok(_) => {}
            Err(err) => tracing::warn!(%err, "pruning old backups failed"),
        }
        Ok(taken)
    }

    /// Starts the schedule (nothing when backups are off). Call once.
    pub fn start_schedule(&self) -> std::io::Result<()> {
        let Some(every) = self.inner.settings.every else {
            return Ok(());
        };
        if crate::store::Location::of(&self.inner.store)
            .file()
            .is_none()
        {
            tracing::info!("no scheduled backups: a PostgreSQL store is backed up with pg_dump");
            return Ok(());
        }
        let first = self.first_delay(every);
        let (stop, stopped) = mpsc::channel::<()>();
        let backups = self.clone();
        let thread = std::thread::Builder::new()
            .name("store-backups".into())
            .spawn(move || {
                let mut due = Instant::now() + first;
                loop {
                    let wait = due.saturating_duration_since(Instant::now());
                    match stopped.recv_timeout(wait) {
                        Err(RecvTimeoutError::Timeout) => {}
                        _ => return,
                    }
                    due = match backups.take(BackupKind::Scheduled) {
                        Ok(_) => Instant::now() + every,
                        Err(err) => {
                            tracing::error!(%err, "the scheduled backup failed");
                            Instant::now() + every.min(RETRY_AFTER)
                        }
                    };
                }
            })?;
        *self
            .inner
            .schedule
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some((stop, thread));
        Ok(())
    }

    /// Stops the schedule, waiting for a backup being written to finish.
    pub fn stop(&self) {
        let schedule = self
            .inner
            .schedule
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some((stop, thread)) = schedule {
            let _ = stop.send(());
            let _ = thread.join();
        }
    }

    /// How long after start the first scheduled backup is due.
    fn first_delay(&self, every: Duration) -> Duration {
        match self.inner.folder.newest() {
            Ok(Some(newest)) => {
                let age = (chrono::Utc::now() - newest).to_std().unwrap_or_default();
                every.saturating_sub(age)
            }
            Ok(None) => every.min(FIRST_BACKUP_WITHIN),
            Err(err) => {
                tracing::warn!(%err, "cannot read the backup folder");
                every.min(FIRST_BACKUP_WITHIN)
            }
        }
    }
}
