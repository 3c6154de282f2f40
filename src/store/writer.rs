//! The writer thread and its group commit.
//!
//! Jobs queue on a channel. The thread takes every job waiting (up to [`MAX_GROUP`]), opens one
//! transaction holding the store's write lock (SQLite's `BEGIN IMMEDIATE`; on PostgreSQL the
//! store-wide advisory lock, see `engine`), runs each job in it, commits once, and only then
//! answers each job (the protocol is in `job`, the group's transaction in `group`). So a burst
//! of N requests costs one fsync, and a failing request undoes only its own changes (a
//! savepoint of its own once the transaction holds another's). On PostgreSQL a commit with
//! events also sends `NOTIFY`, which wakes every process's event follower; on SQLite the events
//! go straight to the subscribers ([`Sink`]).
//!
//! If SQLite rolls the whole transaction back itself (disk full, I/O error), every job of the
//! group is answered with that failure (see `group`). A job that panics is answered as an
//! internal error (and logged); the writer goes on.
//!
//! Two more mechanisms live between groups and around the commit:
//! - **The table-version landing.** The versions of the tables a group changed are odd
//!   from just before its commit until just after (`pages.landing()` / `landed()`), so no
//!   read in that time keeps anything it saw (see `pages`).
//! - **The checkpoint hand-off.** Past `wal::CHECKPOINT_PAGES` (sooner on a nearly full disk,
//!   `wal::due`) the writer asks the checkpoint thread for a run; when the thread says it is
//!   done (`Next::Copied`) the writer copies the rest between two groups, and if the thread is
//!   gone (`Next::CopierGone`) it copies the log itself (see `checkpointer` and `engine::wal`).

mod group;
mod job;

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crossbeam_channel::{unbounded, Receiver, Sender};
use tokio::sync::broadcast;

use super::checkpointer::{Copier, OpenCheckpointer};
use super::db::Connection;
use super::engine::{self, wal};
use super::pages::Pages;
use super::tx::Tx;
use super::{Result, StoreError};
use crate::domain::event::Event;
pub use job::Reply;
use job::{Job, WriteJob};

/// Most jobs committed by one transaction.
const MAX_GROUP: usize = 256;

enum Msg {
    Job(Box<dyn Job>),
    Stop,
}

pub struct Handle {
    queue: Sender<Msg>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

/// Where the events of a committed group go: straight to the subscribers (SQLite, where
/// this writer is the only one), or to a wake-up of the follower that reads every
/// process's events back in id order (PostgreSQL).
pub enum Sink {
    Broadcast(broadcast::Sender<Arc<Event>>),
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    Wake(Box<dyn Fn() + Send>),
}

/// Starts the writer; `open` makes its connection on the writer's own thread. On SQLite,
/// `checkpoints` opens the connection that copies the log back into the store file beside
/// the writer; without it (or when it cannot be opened) the writer copies it itself.
pub fn spawn(
    open: impl FnOnce() -> Result<Connection> + Send + 'static,
    checkpoints: Option<OpenCheckpointer>,
    sink: Sink,
    pages: Arc<Pages>,
) -> Result<Handle> {
    let (queue, jobs) = unbounded();
    let (opened, ready) = std::sync::mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("store-writer".into())
        .spawn(move || {
            match open().and_then(|mut conn| {
                engine::watch_tables(&mut conn, &pages)?;
                let log = wal::watch_log(&mut conn)?;
                Ok((conn, log))
            }) {
                Ok((conn, log)) => {
                    let _ = opened.send(Ok(()));
                    let copier = checkpoints.and_then(|open| Copier::start(open, &log));
                    run(conn, jobs, copier, sink, pages, &log)
                }
                Err(err) => {
                    let _ = opened.send(Err(err));
                }
            }
        })
        .map_err(|e| StoreError::Internal(format!("cannot start the writer thread: {e}")))?;
    match ready.recv() {
        Ok(Ok(())) => {}
        Ok(Err(err)) => return Err(err),
        Err(_) => {
            return Err(StoreError::Internal(
                "the writer thread ended at start".into(),
            ))
        }
    }
    Ok(Handle {
        queue,
        thread: Mutex::new(Some(thread)),
    })
}

impl Handle {
    /// Queues a write; `many_pages` for one that changes many pages (see `group`).
    pub fn submit<T, F>(&self, f: F, reply: Reply<T>, many_pages: bool) -> Result<()>
    where
        T: Send + 'static,
        F: FnOnce(&mut Tx<'_>) -> Result<T> + Send + 'static,
    {
        self.queue
            .send(Msg::Job(Box::new(WriteJob::new(f, reply, many_pages))))
            .map_err(|_| StoreError::Closed)
    }

    /// Finishes the queued work, checkpoints the WAL and ends the thread.
    pub fn stop(&self) {
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(thread) = thread {
            let _ = self.queue.send(Msg::Stop);
            let _ = thread.join();
        }
    }
}

/// What the writer waits for between groups.
enum Next {
    Job(Box<dyn Job>),
    Stop,
    /// The checkpoint thread finished a run.
    Copied,
    /// The checkpoint thread has ended (it panicked): the writer copies the log itself.
    CopierGone,
}

fn run(
    conn: Connection,
    jobs: Receiver<Msg>,
    mut copier: Option<Copier>,
    sink: Sink,
    pages: Arc<Pages>,
    log: &wal::LogSize,
) {
    let never = crossbeam_channel::never();
    let mut stopping = false;
    let mut undo = group::Undo::opened();
    while !stopping {
        let copied = copier.as_ref().map_or(&never, Copier::copied);
        let next = crossbeam_channel::select! {
            recv(jobs) -> msg => match msg {
                Ok(Msg::Job(job)) => Next::Job(job),
                Ok(Msg::Stop) | Err(_) => Next::Stop,
            },
            recv(copied) -> done => match done {
                Ok(()) => Next::Copied,
                Err(_) => Next::CopierGone,
            },
        };
        let first = match next {
            Next::Job(job) => job,
            Next::Stop => break,
            Next::Copied => {
                // The checkpoint thread copied all but a few pages: copy the rest, so the
                // next group starts the log again from its beginning.
                wal::checkpoint(&conn, log);
                if let Some(copier) = copier.as_mut() {
                    copier.thread.finished();
                }
                continue;
            }
            Next::CopierGone => {
                copier = None;
                continue;
            }
        };
        let mut group = vec![first];
        while group.len() < MAX_GROUP {
            match jobs.try_recv() {
                Ok(Msg::Job(job)) => group.push(job),
                Ok(Msg::Stop) => {
                    stopping = true;
                    break;
                }
                Err(_) => break,
            }
        }
        group::commit_group(&conn, group, &sink, &pages, &mut undo);
        if wal::due(&conn, log) {
            match copier.as_mut() {
                Some(copier) => copier.thread.start(),
                None => wal::checkpoint(&conn, log),
            }
        }
    }
    if let Some(mut copier) = copier {
        copier.thread.stop();
    }
    wal::truncate(&conn);
}
