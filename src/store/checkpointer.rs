//! Copying the WAL back into the store file on a thread of its own, beside the writer.
//!
//! A checkpoint copies the pages the log holds into the store file and syncs it. The writer
//! used to run it between two groups, answering nothing meanwhile: placing orders, that was
//! 19 ms every fifth of a second on a small store and 60 ms on a store of a million orders,
//! where the copied pages lie all over the file.
//!
//! Here a connection of its own copies while the writer goes on committing (SQLite lets a
//! checkpoint and a writer work at once). A pass copies what was committed when it began,
//! so passes repeat while what was appended meanwhile is large. Then the writer is told, and
//! copies the small rest itself between two groups: SQLite starts the log again from its
//! beginning only when a writer begins with every frame copied, and the writer's next
//! transaction does.
//!
//! The hand-off, from the writer's side ([`Copier`]): past `wal::CHECKPOINT_PAGES` the
//! writer asks for a run ([`Checkpointer::start`]) and goes on; the thread says when the run
//! is over ([`Copier::copied`]), and the writer copies the rest between two groups, then
//! marks the run finished. If the thread has ended (it panicked), its channel closes and the
//! writer copies the log itself from then on.

use std::sync::mpsc;
use std::thread::JoinHandle;

use crossbeam_channel::{unbounded, Receiver};
use rusqlite::wal::CheckpointMode;

use super::engine::wal::LogSize;
use super::Result;

/// Opens the checkpoint thread's own connection to an SQLite store.
pub type OpenCheckpointer = Box<dyn FnOnce() -> Result<rusqlite::Connection> + Send>;

/// The checkpoint thread as the writer holds it, and where the thread says that a run is
/// over.
pub(super) struct Copier {
    pub(super) thread: Checkpointer,
    copied: Receiver<()>,
}

impl Copier {
    /// Starts the thread on the connection `open` makes; `None` (logged) when it cannot be
    /// opened: the writer then copies the log itself.
    pub(super) fn start(open: OpenCheckpointer, log: &LogSize) -> Option<Self> {
        let (done, copied) = unbounded();
        let started = open().and_then(|conn| {
            Checkpointer::spawn(conn, log.clone(), move || {
                let _ = done.send(());
            })
        });
        match started {
            Ok(thread) => Some(Self { thread, copied }),
            Err(err) => {
                tracing::warn!(%err, "no checkpoint thread; the writer copies the log itself");
                None
            }
        }
    }

    /// Receives `()` when a run is over; disconnects when the thread has ended.
    pub(super) fn copied(&self) -> &Receiver<()> {
        &self.copied
    }
}

/// Passes repeat until at most this many frames (4 KiB pages) are left for the writer.
const REST_PAGES: i32 = 256;

/// Most passes in one run: a reader holding an old snapshot keeps frames from being copied,
/// and the writer then copies what it can, as it did before.
const MAX_PASSES: u32 = 8;

/// The thread, started once per store and asked to run by the writer.
pub struct Checkpointer {
    start: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
    running: bool,
}

impl Checkpointer {
    /// Starts the thread on `conn`, a connection of its own to the store; `done` is called
    /// on that thread after each run, to tell the writer to copy the rest.
    pub fn spawn(
        conn: rusqlite::Connection,
        log: LogSize,
        done: impl Fn() + Send + 'static,
    ) -> Result<Self> {
        let (start, runs) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("store-checkpoint".into())
            .spawn(move || {
                for () in runs {
                    copy(&conn, &log);
                    done();
                }
            })
            .map_err(|e| {
                super::StoreError::Internal(format!("cannot start the checkpoint thread: {e}"))
            })?;
        Ok(Self {
            start: Some(start),
            thread: Some(thread),
            running: false,
        })
    }

    /// Asks for a run, unless one is under way.
    pub fn start(&mut self) {
        if !self.running {
            self.running = self
                .start
                .as_ref()
                .is_some_and(|start| start.send(()).is_ok());
        }
    }

    /// The run the writer was told of is over.
    pub fn finished(&mut self) {
        self.running = false;
    }

    /// Lets a run under way finish, then ends the thread.
    pub fn stop(&mut self) {
        self.start = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Passive passes until little is left to copy (see the module header), then a sync of
/// the store file.
fn copy(conn: &rusqlite::Connection, log: &LogSize) {
    for _ in 0..MAX_PASSES {
        match conn.wal_checkpoint_v2(None::<&str>, CheckpointMode::PASSIVE) {
            Ok((_, copied)) if log.pages() - copied > REST_PAGES => {}
            Ok(_) => break,
            Err(err) => {
                static SAID: crate::repeats::Repeats = crate::repeats::Repeats::new();
                if let Some(left_out) = SAID.now() {
                    tracing::warn!(%err, left_out, "a checkpoint pass failed; the writer copies the log itself");
                }
                return;
            }
        }
    }
    // SQLite syncs the store file only in a pass that copies up to the newest commit, and
    // with the writer committing meanwhile these passes rarely do: the writer's pass for
    // the rest would then sync every page copied here, and answer nothing while it waits.
    // Sync them here. (Until a synced pass has copied every frame, SQLite keeps the log as
    // it is, so this sync is for speed, not for safety.)
    if let Some(path) = conn.path() {
        if let Err(err) = std::fs::File::open(path).and_then(|file| file.sync_all()) {
            tracing::warn!(%err, "syncing the store file after a checkpoint pass failed");
        }
    }
}
