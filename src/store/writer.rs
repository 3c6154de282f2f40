//! The writer thread and its group commit.
//!
//! Jobs queue on a channel. The thread takes every job waiting (up to [`MAX_GROUP`]), opens
//! one `BEGIN IMMEDIATE` transaction, runs each job inside its own savepoint (released on
//! success, rolled back on failure), commits once, and only then answers each job. So a
//! burst of N requests costs one fsync, and a failing request undoes only its own changes.
//!
//! SQLite itself may roll the whole transaction back (disk full, I/O error): the writer
//! notices (the connection is back in autocommit) and answers every job of the group with
//! that failure, those already run included, so no one is told of a change that was undone.
//! A job that panics is answered as an internal error (and logged); the writer goes on.

use std::sync::Arc;
use std::sync::Mutex;
use std::thread::JoinHandle;

use crossbeam_channel::{unbounded, Receiver, Sender};
use rusqlite::params;

use super::db::Connection;
use serde::Serialize;
use tokio::sync::broadcast;

use super::checkpointer::Checkpointer;
use super::pages::Pages;
use super::{Result, StoreError};
use crate::domain::event::Event;
use crate::domain::staff::MemberRef;
use crate::domain::time;

/// Most jobs committed by one transaction.
const MAX_GROUP: usize = 256;

/// WAL pages (4 KiB each) after which the log is copied back into the database (a
/// checkpoint): by the checkpoint thread beside the writer on SQLite (see `checkpointer`),
/// with the writer copying only the last few pages between two groups. SQLite's default
/// is 1,000, checked inside each commit. Placing orders writes fifty to seventy pages a group,
/// most of them the same index pages again and again: a checkpoint every 1,000 pages copied
/// those pages back (with the database's fsync) every twenty groups, a tenth of the writer's
/// time. At 10,000 a checkpoint copies each hot page once for ten times as many groups; the
/// log grows to about 40 MiB between checkpoints, and is emptied at shutdown.
const CHECKPOINT_PAGES: i32 = 10_000;

/// A write in progress: the connection inside the group's transaction and the request's
/// savepoint, plus the change events the request emits.
pub struct Tx<'c> {
    conn: &'c Connection,
    events: Vec<Event>,
    /// The staff member whose session made this request, if one did (see `call`).
    member: Option<MemberRef>,
}

impl std::ops::Deref for Tx<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Tx<'_> {
    /// The staff member whose session made this request, if one did.
    pub fn member(&self) -> Option<&MemberRef> {
        self.member.as_ref()
    }

    pub(super) fn set_member(&mut self, member: Option<MemberRef>) {
        self.member = member;
    }

    /// Records a change event; subscribers receive it once the group commits.
    pub fn emit<T: Serialize>(&mut self, kind: &str, record: &T) -> Result<()> {
        let data = serde_json::to_value(record)
            .map_err(|e| StoreError::Internal(format!("cannot encode an event: {e}")))?;
        let at = time::now();
        let key_name = self.member.as_ref().map(|m| m.name.clone());
        let staff_id = self.member.as_ref().map(|m| m.id);
        let id = self
            .conn
            .prepare_cached(
                "INSERT INTO events (type, at, data, key_name, staff_id) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .insert(params![kind, at, data.to_string(), key_name, staff_id])?;
        self.events.push(Event {
            id,
            kind: kind.to_owned(),
            at,
            data,
            key_name,
            staff_id,
        });
        Ok(())
    }
}

/// Why a whole group failed to commit; every job in it is told.
#[derive(Clone)]
struct GroupFailure {
    kind: FailureKind,
    message: String,
}

#[derive(Clone, Copy)]
enum FailureKind {
    Busy,
    Unavailable,
    Internal,
}

impl GroupFailure {
    fn from_error(err: &StoreError) -> Self {
        let kind = match err {
            StoreError::Busy => FailureKind::Busy,
            StoreError::Unavailable(_) => FailureKind::Unavailable,
            _ => FailureKind::Internal,
        };
        Self {
            kind,
            message: match err {
                StoreError::Unavailable(why) => why.clone(),
                other => other.to_string(),
            },
        }
    }

    /// SQLite undid the whole transaction by itself.
    fn rolled_back() -> Self {
        Self {
            kind: FailureKind::Unavailable,
            message: "the group's transaction was rolled back by SQLite".into(),
        }
    }

    fn to_error(&self) -> StoreError {
        match self.kind {
            FailureKind::Busy => StoreError::Busy,
            FailureKind::Unavailable => StoreError::Unavailable(self.message.clone()),
            FailureKind::Internal => StoreError::Internal(self.message.clone()),
        }
    }
}

type Finish = Box<dyn FnOnce(Option<&GroupFailure>) + Send>;

trait Job: Send {
    /// Runs the job inside its savepoint: whether it succeeded, and how to answer it once
    /// the group's fate is known.
    fn run(self: Box<Self>, tx: &mut Tx<'_>) -> (bool, Finish);
    /// Answers the job without running it.
    fn abort(self: Box<Self>, err: StoreError);
}

/// Where a job's answer goes: a tokio oneshot for async callers, a std channel for the
/// command line.
pub type Reply<T> = Box<dyn FnOnce(Result<T>) + Send>;

struct WriteJob<F, T> {
    f: F,
    reply: Reply<T>,
}

impl<F, T> Job for WriteJob<F, T>
where
    T: Send + 'static,
    F: FnOnce(&mut Tx<'_>) -> Result<T> + Send + 'static,
{
    fn run(self: Box<Self>, tx: &mut Tx<'_>) -> (bool, Finish) {
        let WriteJob { f, reply } = *self;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(tx)))
            .unwrap_or_else(|panic| {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                tracing::error!(panic = %what, "a write panicked; its changes are undone");
                Err(StoreError::Internal(format!("a write panicked: {what}")))
            });
        let ok = result.is_ok();
        let finish: Finish = Box::new(move |failure| {
            let answer = match failure {
                Some(failure) if ok => Err(failure.to_error()),
                _ => result,
            };
            reply(answer);
        });
        (ok, finish)
    }

    fn abort(self: Box<Self>, err: StoreError) {
        (self.reply)(Err(err));
    }
}

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

/// Opens the checkpoint thread's own connection to an SQLite store (see `checkpointer`).
pub type OpenCheckpointer = Box<dyn FnOnce() -> Result<rusqlite::Connection> + Send>;

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
                watch_tables(&mut conn, &pages)?;
                let log = watch_log(&mut conn)?;
                Ok((conn, log))
            }) {
                Ok((conn, log)) => {
                    let _ = opened.send(Ok(()));
                    let copier = checkpoints.and_then(|open| start_copier(open, &log));
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
    pub fn submit<T, F>(&self, f: F, reply: Reply<T>) -> Result<()>
    where
        T: Send + 'static,
        F: FnOnce(&mut Tx<'_>) -> Result<T> + Send + 'static,
    {
        self.queue
            .send(Msg::Job(Box::new(WriteJob { f, reply })))
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

/// The checkpoint thread, and where it says that a run is over.
struct Copier {
    thread: Checkpointer,
    copied: Receiver<()>,
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

fn start_copier(open: OpenCheckpointer, log: &LogSize) -> Option<Copier> {
    let (done, copied) = unbounded();
    let started = open().and_then(|conn| {
        Checkpointer::spawn(conn, log.clone(), move || {
            let _ = done.send(());
        })
    });
    match started {
        Ok(thread) => Some(Copier { thread, copied }),
        Err(err) => {
            tracing::warn!(%err, "no checkpoint thread; the writer copies the log itself");
            None
        }
    }
}

fn run(
    conn: Connection,
    jobs: Receiver<Msg>,
    mut copier: Option<Copier>,
    sink: Sink,
    pages: Arc<Pages>,
    log: &LogSize,
) {
    let never = crossbeam_channel::never();
    let mut stopping = false;
    while !stopping {
        let copied = copier.as_ref().map_or(&never, |c| &c.copied);
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
                checkpoint(&conn, log);
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
        commit_group(&conn, group, &sink, &pages);
        if log.pages() >= CHECKPOINT_PAGES {
            match copier.as_mut() {
                Some(copier) => copier.thread.start(),
                None => checkpoint(&conn, log),
            }
        }
    }
    if let Some(mut copier) = copier {
        copier.thread.stop();
    }
    if let Some(lite) = conn.lite() {
        if let Err(err) = lite.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)") {
            tracing::warn!(%err, "checkpoint at shutdown failed; the WAL is replayed at next start");
        }
    }
}

/// Runs a statement from the connection's statement cache (savepoints run once per
/// request: parsing them every time showed in profiles).
fn run_cached(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    match conn.lite() {
        Some(lite) => lite.prepare_cached(sql)?.execute([]).map(|_| ()),
        None => conn.execute_batch(sql),
    }
}

/// On SQLite every row the writer changes names its table, so the lists know what changed
/// (PostgreSQL stores remember no pages: other processes write the same tables).
fn watch_tables(conn: &mut Connection, pages: &Arc<Pages>) -> Result<()> {
    if let Some(lite) = conn.lite_mut() {
        let touched = pages.clone();
        lite.update_hook(Some(move |_, _: &str, table: &str, _| {
            touched.touched(table)
        }))?;
    }
    Ok(())
}

/// The WAL's length in pages after the last commit, as SQLite reports it (0 on PostgreSQL).
#[derive(Clone, Default)]
pub(super) struct LogSize(Arc<std::sync::atomic::AtomicI32>);

impl LogSize {
    pub(super) fn pages(&self) -> i32 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn set(&self, pages: i32) {
        self.0.store(pages, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Follows the WAL's length after each commit. This replaces SQLite's own checkpoint hook,
/// so the log is copied back as [`CHECKPOINT_PAGES`] says, not inside a commit.
fn watch_log(conn: &mut Connection) -> Result<LogSize> {
    let size = LogSize::default();
    if let Some(lite) = conn.lite_mut() {
        let seen = size.clone();
        lite.wal_hook(Some(move |_: &mut rusqlite::hooks::Wal, pages| {
            seen.set(pages);
            Ok(())
        }))?;
    }
    Ok(size)
}

/// Copies the WAL back into the database as far as the readers allow (a passive
/// checkpoint, as SQLite's own), between two groups: all of it when there is no checkpoint
/// thread, else the rest that thread left. The log starts again from its beginning at the
/// next commit once every page is copied.
fn checkpoint(conn: &Connection, log: &LogSize) {
    let Some(lite) = conn.lite() else {
        return;
    };
    match lite.wal_checkpoint_v2(None::<&str>, rusqlite::wal::CheckpointMode::PASSIVE) {
        Ok(_) => log.set(0),
        Err(err) => {
            tracing::warn!(%err, "a checkpoint failed; the WAL keeps growing until one succeeds")
        }
    }
}

/// Opens the group's transaction: on SQLite `BEGIN IMMEDIATE` takes the file's write lock;
/// on PostgreSQL the store-wide advisory lock does the same for every process on the
/// database, held until the commit (see `dialect`).
fn begin(conn: &Connection) -> rusqlite::Result<()> {
    if conn.is_postgres() {
        conn.execute_batch(&format!(
            "BEGIN; SELECT pg_advisory_xact_lock({})",
            super::dialect::WRITE_LOCK
        ))
    } else {
        conn.execute_batch("BEGIN IMMEDIATE")
    }
}

fn commit_group(conn: &Connection, group: Vec<Box<dyn Job>>, sink: &Sink, pages: &Pages) {
    if let Err(err) = begin(conn) {
        if conn.is_postgres() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        let err = StoreError::from(err);
        let failure = GroupFailure::from_error(&err);
        for job in group {
            job.abort(failure.to_error());
        }
        return;
    }
    let mut finishers = Vec::with_capacity(group.len());
    let mut committed_events = Vec::new();
    let mut rolled_back = None;
    let mut jobs = group.into_iter();
    for job in jobs.by_ref() {
        if let Err(err) = run_cached(conn, "SAVEPOINT request") {
            job.abort(StoreError::from(err));
            if conn.is_autocommit() {
                rolled_back = Some(GroupFailure::rolled_back());
                break;
            }
            continue;
        }
        let mut tx = Tx {
            conn,
            events: Vec::new(),
            member: None,
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run(&mut tx)));
        let ok = matches!(outcome, Ok((true, _)));
        if let Ok((_, finish)) = outcome {
            finishers.push(finish);
        }
        if conn.is_autocommit() {
            // SQLite rolled the whole transaction back (disk full, I/O error): every change
            // of this group so far is gone.
            rolled_back = Some(GroupFailure::rolled_back());
            break;
        }
        let end = if ok {
            run_cached(conn, "RELEASE request")
        } else {
            run_cached(conn, "ROLLBACK TO request")
                .and_then(|()| run_cached(conn, "RELEASE request"))
        };
        if let Err(err) = end {
            tracing::error!(%err, "ending a savepoint failed");
        }
        if conn.is_autocommit() {
            rolled_back = Some(GroupFailure::rolled_back());
            break;
        }
        if ok {
            committed_events.extend(tx.events);
        }
    }
    // The changed tables' versions are odd while the commit lands: no read in that time
    // keeps anything it saw.
    let landing = pages.landing();
    let failure = match rolled_back {
        Some(failure) => {
            tracing::error!(
                "SQLite rolled back a group commit (disk full or I/O error); its requests are answered 503"
            );
            for job in jobs {
                job.abort(failure.to_error());
            }
            Some(failure)
        }
        None => commit(conn, !committed_events.is_empty()).err().map(|err| {
            let _ = conn.execute_batch("ROLLBACK");
            let err = StoreError::from(err);
            tracing::error!(%err, "a group commit failed; its requests are answered with an error");
            GroupFailure::from_error(&err)
        }),
    };
    pages.landed(landing);
    for finish in finishers {
        finish(failure.as_ref());
    }
    if failure.is_none() && !committed_events.is_empty() {
        match sink {
            Sink::Broadcast(events) => {
                for event in committed_events {
                    let _ = events.send(Arc::new(event));
                }
            }
            Sink::Wake(wake) => wake(),
        }
    }
}

/// Commits the group; on PostgreSQL a group with events also wakes every process's
/// event follower (a notification is delivered at the commit, or not at all).
fn commit(conn: &Connection, with_events: bool) -> rusqlite::Result<()> {
    if conn.is_postgres() && with_events {
        conn.execute_batch(&format!(
            "NOTIFY {}; COMMIT",
            super::dialect::EVENTS_CHANNEL
        ))
    } else {
        conn.execute_batch("COMMIT")
    }
}

#[cfg(test)]
mod tests {
    use crate::store::{Call, Store, StoreError};

    #[test]
    fn a_panicking_write_is_answered_as_an_internal_error_and_the_writer_goes_on() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let store = Store::open(&dir.path().join("store.sqlite")).expect("a store");
        let panicked: Result<(), StoreError> =
            Call::write(&store, |_tx| -> crate::store::Result<()> { panic!("boom") }).wait();
        match panicked {
            Err(StoreError::Internal(message)) => assert!(message.contains("boom"), "{message}"),
            other => panic!("expected an internal error, got {other:?}"),
        }
        let after = Call::write(&store, |tx| Ok(tx.is_autocommit())).wait();
        assert_eq!(
            after.ok(),
            Some(false),
            "the next write runs in a transaction"
        );
        store.close();
    }

    /// The temporary files SQLite has open in this process: named `etilqs_…`, or nameless
    /// (`O_TMPFILE`, shown as `/var/tmp/#inode (deleted)`).
    #[cfg(target_os = "linux")]
    fn temporary_files() -> Vec<String> {
        std::fs::read_dir("/proc/self/fd")
            .expect("this process's files")
            .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
            .map(|target| target.display().to_string())
            .filter(|target| target.contains("etilqs_") || target.contains("/#"))
            .collect()
    }

    /// A table of `pages` rows, each filling a page of its own.
    fn filler(store: &Store, pages: u32) {
        Call::write(store, move |tx| {
            tx.execute_batch(&format!(
                "CREATE TABLE filler (b BLOB);
                 WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < {pages})
                 INSERT INTO filler SELECT zeroblob(3000) FROM n;"
            ))?;
            Ok(())
        })
        .wait()
        .expect("the filler table");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_request_changing_twenty_five_pages_keeps_its_undo_pages_in_memory() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let store = Store::open(&dir.path().join("store.sqlite")).expect("a store");
        filler(&store, 25);
        // 25 pages of undo (100 KiB) is past SQLite's default of 64 KiB before the
        // sub-journal goes to a temporary file, and within this build's 120 KiB.
        // (Other tests in this process may have temporary files of their own open.)
        let opened = Call::write(&store, |tx| {
            let before = temporary_files();
            tx.execute("UPDATE filler SET b = zeroblob(3001)", [])?;
            let mut after = temporary_files();
            after.retain(|file| !before.contains(file));
            Ok(after)
        })
        .wait()
        .expect("a write");
        assert!(opened.is_empty(), "the request opened {opened:?}");
        store.close();
    }

    /// A request whose undo pages outgrow the buffer has them moved to a temporary file in
    /// one write of the whole buffer. SQLite's Unix file layer cuts any single write to
    /// under 128 KiB, so a larger buffer came out short and the request failed as "disk
    /// full" (`SQLITE_STMTJRNL_SPILL` in .cargo/config.toml must stay below that).
    #[test]
    fn a_request_changing_more_pages_than_the_buffer_holds_commits() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let store = Store::open(&dir.path().join("store.sqlite")).expect("a store");
        filler(&store, 200);
        let changed = Call::write(&store, |tx| {
            Ok(tx.execute("UPDATE filler SET b = zeroblob(3001)", [])?)
        })
        .wait()
        .expect("a write of 200 pages (800 KiB of undo)");
        assert_eq!(changed, 200);
        let rewritten = Call::read(&store, |conn| {
            Ok(conn
                .prepare_cached("SELECT COUNT(*) FROM filler WHERE length(b) = 3001")?
                .query_row([], |row| row.get::<_, i64>(0))?)
        })
        .wait()
        .expect("a read");
        assert_eq!(rewritten, 200);
        store.close();
    }

    /// How many times the log has started again from its beginning (the WAL header's
    /// checkpoint sequence number, rewritten with the first commit after each restart).
    fn log_restarts(log: &std::path::Path) -> u32 {
        use std::io::Read;
        let mut header = [0u8; 16];
        std::fs::File::open(log)
            .and_then(|mut file| file.read_exact(&mut header))
            .expect("the log's header");
        u32::from_be_bytes([header[12], header[13], header[14], header[15]])
    }

    #[test]
    fn the_log_is_copied_back_and_starts_again_so_it_stops_growing() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("store.sqlite");
        let log = dir.path().join("store.sqlite-wal");
        let store = Store::open(&path).expect("a store");
        let write = |bytes: i64| {
            Call::write(&store, move |tx| {
                tx.execute("INSERT INTO filler VALUES (zeroblob(?1))", [bytes])?;
                Ok(())
            })
            .wait()
            .expect("a write")
        };
        Call::write(&store, |tx| {
            Ok(tx.execute_batch("CREATE TABLE filler (b BLOB)")?)
        })
        .wait()
        .expect("a table");
        // Each write fills the log past the checkpoint mark by itself.
        let group = i64::from(super::CHECKPOINT_PAGES) * 4096 * 11 / 10;
        for _ in 0..3 {
            let before = log_restarts(&log);
            write(group);
            // The copy runs beside the writer; small writes go on meanwhile, and one of
            // them starts the log again once every page is copied.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
            while log_restarts(&log) == before {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the log never started again"
                );
                std::thread::sleep(std::time::Duration::from_millis(10));
                write(100);
            }
        }
        let length = std::fs::metadata(&log).expect("the log").len();
        // Without checkpoints the log would hold all three large writes.
        assert!(
            length < 2 * group.unsigned_abs(),
            "the log grew to {length} bytes for writes of {group}"
        );
        store.close();
    }
}
