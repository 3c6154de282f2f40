//! The change events kept in the database, so a subscriber can resume where it left off.
//!
//! Ids are in commit order by construction: an event's id is given by `INSERT` inside the
//! writer's transaction, which holds the database's one write lock from `BEGIN IMMEDIATE`
//! to `COMMIT` (in this program and in any other writing the same file). So an event with a
//! higher id never commits before one with a lower id, and a follower asking only for "after
//! the last id I saw" misses nothing. An engine without that lock must hand ids out at
//! commit instead; `store::tests` holds the follower test for it.

use rusqlite::params;

use super::db::Connection;
use super::{Call, Result, Store, Tx};
use crate::domain::event::Event;

/// How long events are kept for resuming, in hours.
pub const KEEP_HOURS: i64 = 24;
/// Most events kept, whatever their age.
pub const KEEP_MAX: i64 = 100_000;

/// Events after `last_id`, oldest first, at most `limit`.
fn since(conn: &Connection, last_id: i64, limit: i64) -> Result<Vec<Event>> {
    let rows = conn
        .prepare_cached(
            "SELECT id, type, at, data, key_name, staff_id FROM events
             WHERE id > ?1 ORDER BY id LIMIT +?2",
        )?
        .query_map(params![last_id, limit], |row| {
            let data: String = row.get(3)?;
            Ok(Event {
                id: row.get(0)?,
                kind: row.get(1)?,
                at: row.get(2)?,
                data: serde_json::from_str(&data).unwrap_or(serde_json::Value::Null),
                key_name: row.get(4)?,
                staff_id: row.get(5)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// The newest event's id (0 when there is none).
fn last_id(conn: &Connection) -> Result<i64> {
    Ok(
        conn.query_row("SELECT COALESCE(MAX(id), 0) FROM events", [], |row| {
            row.get(0)
        })?,
    )
}

/// The oldest and newest kept events' ids (0, 0 when none is kept).
fn bounds(conn: &Connection) -> Result<(i64, i64)> {
    Ok(conn.query_row(
        "SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), 0) FROM events",
        [],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?)
}

/// Drops events older than [`KEEP_HOURS`] and beyond the newest [`KEEP_MAX`].
pub(super) fn prune(tx: &Tx<'_>) -> Result<usize> {
    let cutoff =
        crate::domain::time::format(chrono::Utc::now() - chrono::Duration::hours(KEEP_HOURS));
    let by_age = tx.execute("DELETE FROM events WHERE at < ?1", [cutoff])?;
    let by_count = tx.execute(
        "DELETE FROM events WHERE id <= (SELECT MAX(id) FROM events) - ?1",
        [KEEP_MAX],
    )?;
    Ok(by_age + by_count)
}

/// The change events kept for resuming subscribers: `store.events()`.
pub struct Events<'s>(pub(super) &'s Store);

impl<'s> Events<'s> {
    /// Events after `last_id`, oldest first, at most `limit`.
    pub fn since(&self, last_id: i64, limit: i64) -> Call<'s, Vec<Event>> {
        Call::read(self.0, move |c| since(c, last_id, limit))
    }

    /// The oldest and newest kept events' ids (0, 0 when none is kept).
    pub fn bounds(&self) -> Call<'s, (i64, i64)> {
        Call::read(self.0, bounds)
    }

    /// The newest event's id (0 when there is none).
    pub fn last_id(&self) -> Call<'s, i64> {
        Call::read(self.0, last_id)
    }
}

/// PostgreSQL: every process's events reach this process's subscribers through one
/// follower thread, in id order (ids commit in order: every write group holds the store's
/// advisory write lock until it commits). It reads the events after the last it handed on
/// when this process's writer commits some, when a `NOTIFY` says another process did, and
/// every second whatever happens (in case a notification is lost with a connection).
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
                let listening = super::connection::open_postgres(&url, true).and_then(|conn| {
                    conn.execute_batch(&format!("LISTEN {}", super::dialect::EVENTS_CHANNEL))?;
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
