//! The reader threads: each owns a read-only connection and takes jobs from one queue.

use std::sync::Mutex;
use std::thread::JoinHandle;

use crossbeam_channel::{unbounded, Sender};

use super::db::Connection;
use super::{Result, StoreError};

/// How many reader threads the store runs.
pub const COUNT: usize = 4;
/// On PostgreSQL: each holds a connection (a server process) of a database several
/// petstore processes share, and the reads wait on the server rather than the CPU here.
#[cfg_attr(not(feature = "postgres"), allow(dead_code))]
pub const POSTGRES_COUNT: usize = 3;

/// A read to run on some reader's connection.
pub type Job = Box<dyn FnOnce(&Connection) + Send>;

enum Msg {
    Job(Job),
    Stop,
}

pub struct Handle {
    queue: Sender<Msg>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

/// Opens one reader's connection, on the reader's own thread.
pub type Open = std::sync::Arc<dyn Fn() -> Result<Connection> + Send + Sync>;

pub fn spawn(open: Open, count: usize) -> Result<Handle> {
    let (queue, jobs) = unbounded::<Msg>();
    let mut threads = Vec::with_capacity(count);
    let (opened, each) = std::sync::mpsc::channel();
    for n in 0..count {
        let jobs = jobs.clone();
        let open = open.clone();
        let opened = opened.clone();
        let thread = std::thread::Builder::new()
            .name(format!("store-reader-{n}"))
            .spawn(move || {
                let conn = match open() {
                    Ok(conn) => {
                        let _ = opened.send(Ok(()));
                        conn
                    }
                    Err(err) => {
                        let _ = opened.send(Err(err));
                        return;
                    }
                };
                drop(opened);
                while let Ok(Msg::Job(job)) = jobs.recv() {
                    // A panicking job must not take the reader down with it; its caller
                    // sees its answer channel closed.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&conn)));
                }
            })
            .map_err(|e| StoreError::Internal(format!("cannot start a reader thread: {e}")))?;
        threads.push(thread);
    }
    drop(opened);
    let handle = Handle {
        queue,
        threads: Mutex::new(threads),
    };
    for _ in 0..count {
        match each.recv() {
            Ok(Ok(())) => {}
            Ok(Err(err)) => {
                handle.stop();
                return Err(err);
            }
            Err(_) => {
                handle.stop();
                return Err(StoreError::Internal(
                    "a reader thread ended at start".into(),
                ));
            }
        }
    }
    Ok(handle)
}

impl Handle {
    pub fn submit(&self, job: Job) -> Result<()> {
        self.queue
            .send(Msg::Job(job))
            .map_err(|_| StoreError::Closed)
    }

    pub fn stop(&self) {
        let threads = std::mem::take(&mut *self.threads.lock().unwrap_or_else(|e| e.into_inner()));
        for _ in &threads {
            let _ = self.queue.send(Msg::Stop);
        }
        for thread in threads {
            let _ = thread.join();
        }
    }
}
