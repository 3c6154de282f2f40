//! PostgreSQL's event follower: every process's change events reach this process's
//! subscribers through one thread, in id order (ids commit in order: every write group holds
//! the store's advisory write lock until it commits; see `events`). It `LISTEN`s on the
//! events channel and reads the events after the last it handed on when this process's
//! writer commits some (the writer's `Sink::Wake`), when a `NOTIFY` says another process
//! did, and every second whatever happens (in case a notification is lost with a
//! connection). On SQLite the writer hands events to the subscribers itself.

#[cfg(feature = "postgres")]
use crate::domain::event::Event;
#[cfg(feature = "postgres")]
use crate::store::db::Connection;
#[cfg(feature = "postgres")]
use crate::store::events::{last_id, since};
#[cfg(feature = "postgres")]
use crate::store::Result;

/// The follower thread (see the module header); without the `postgres` feature it never
/// starts.
pub struct Follower {
    #[cfg(feature = "postgres")]
    wake: crossbeam_channel::Sender<()>,
    #[cfg(feature = "postgres")]
    stopping: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::sync::Mutex<Option<std::thread::JoinHandle<()>>>,
}

#[cfg(feature = "postgres")]
impl Follower {
    /// How long the follower waits before asking the database anyway.
    const POLL: std::time::Duration = std::time::Duration::from_secs(1);
    /// How often it looks for notifications between wake-ups.
    const TICK: std::time::Duration = std::time::Duration::from_millis(50);
    /// Most events read at once.
    const BATCH: i64 = 1000;

    /// Starts following the database at `url`, from its newest event.
    pub fn start(
        url: String,
        events: tokio::sync::broadcast::Sender<std::sync::Arc<Event>>,
    ) -> Result<Self> {
        let (wake, woken) = crossbeam_channel::unbounded::<()>();
        let stopping = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stop = stopping.clone();
        let (opened, ready) = std::sync::mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("store-events".into())
            .spawn(move || {
                let listening =
                    crate::store::connection::open_postgres(&url, true).and_then(|conn| {
                        conn.execute_batch(&format!(
                            "LISTEN {}",
                            crate::store::dialect::EVENTS_CHANNEL
                        ))?;
                        let last = last_id(&conn)?;
                        Ok((conn, last))
                    });
                match listening {
                    Ok((conn, last)) => {
                        let _ = opened.send(Ok(()));
                        follow(&conn, last, &woken, &stop, &events);
                    }
                    Err(err) => {
                        let _ = opened.send(Err(err));
                    }
                }
            })
            .map_err(|e| {
                crate::store::StoreError::Internal(format!("cannot start the events thread: {e}"))
            })?;
        match ready.recv() {
            Ok(Ok(())) => {}
            Ok(Err(err)) => return Err(err),
            Err(_) => {
                return Err(crate::store::StoreError::Internal(
                    "the events thread ended at start".into(),
                ))
            }
        }
        Ok(Self {
            wake,
            stopping,
            thread: std::sync::Mutex::new(Some(thread)),
        })
    }

    /// Wakes the follower: this process committed events.
    pub fn waker(&self) -> Box<dyn Fn() + Send> {
        let wake = self.wake.clone();
        Box::new(move || {
            let _ = wake.send(());
        })
    }

    pub fn stop(&self) {
        self.stopping
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}

/// The follower's loop: hands on the events after `last` whenever it is woken, notified
/// or has not asked for [`Follower::POLL`], until `stop`.
#[cfg(feature = "postgres")]
fn follow(
    conn: &Connection,
    mut last: i64,
    woken: &crossbeam_channel::Receiver<()>,
    stop: &std::sync::atomic::AtomicBool,
    events: &tokio::sync::broadcast::Sender<std::sync::Arc<Event>>,
) {
    let mut asked = std::time::Instant::now();
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        let woken = match woken.recv_timeout(Follower::TICK) {
            Ok(()) => {
                while woken.try_recv().is_ok() {}
                true
            }
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => false,
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
        };
        let notified = match conn {
            Connection::Pg(session) => session.drain_notifications().unwrap_or(true),
            Connection::Lite(_) => false,
        };
        if woken || notified || asked.elapsed() >= Follower::POLL {
            asked = std::time::Instant::now();
            hand_on(conn, &mut last, events);
        }
    }
}

/// Sends every event after `last` to the subscribers, a batch at a time; `last` follows.
#[cfg(feature = "postgres")]
fn hand_on(
    conn: &Connection,
    last: &mut i64,
    events: &tokio::sync::broadcast::Sender<std::sync::Arc<Event>>,
) {
    loop {
        match since(conn, *last, Follower::BATCH) {
            Ok(batch) => {
                let full = batch.len() as i64 == Follower::BATCH;
                for event in batch {
                    *last = event.id;
                    let _ = events.send(std::sync::Arc::new(event));
                }
                if !full {
                    return;
                }
            }
            Err(err) => {
                static SAID: crate::repeats::Repeats = crate::repeats::Repeats::new();
                if let Some(left_out) = SAID.now() {
                    tracing::warn!(%err, left_out, "reading new events failed; trying again shortly");
                }
                return;
            }
        }
    }
}

#[cfg(not(feature = "postgres"))]
impl Follower {
    pub fn stop(&self) {
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
    }
}
