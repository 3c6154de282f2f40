//! The group commit: one transaction for a group of jobs, committed once, then every job
//! answered.
//!
//! A job that fails must undo only its own changes. While the transaction holds no other
//! job's changes, a failing job is undone by rolling the transaction back, and the next job
//! starts a new one; only a job that runs after another job's changes needs a savepoint of
//! its own (released on success, rolled back on failure). So a job that comes alone, or
//! first, copies no page aside for its undo: on SQLite that copy (the sub-journal) was an
//! eighth of the writer's time on orders.
//!
//! Where SQLite keeps those undo pages is chosen per group ([`Undo`]): in one buffer of up to
//! 120 KiB (one allocation; an order's fit), unless a job of the group changes many pages (a
//! sale, a refund, a stocktake, a delivery, an import: `Call::changing_many_pages`), whose undo
//! outgrows the buffer. Past it, SQLite would move them to a temporary file and write every
//! later page there in two system calls, so such a group keeps them in memory instead, in
//! pieces of 1 KiB (an allocation each, which made orders a seventh slower when every group did
//! it).
//!
//! SQLite itself may roll the whole transaction back (disk full, I/O error): the writer
//! notices (the connection is back in autocommit) and answers every job of the group with
//! that failure, those already run included, so no one is told of a change that was undone.

use std::sync::Arc;

use super::job::{GroupFailure, Job};
use super::Sink;
use crate::store::db::Connection;
use crate::store::engine;
use crate::store::pages::Pages;
use crate::store::tx::Tx;
use crate::store::StoreError;

/// Where SQLite keeps savepoints' undo pages now: the writer's connection opens with them
/// in memory (`connection::open_writer`).
pub(super) struct Undo {
    in_memory: bool,
}

impl Undo {
    pub(super) fn opened() -> Self {
        Self { in_memory: true }
    }

    /// Keeps the undo pages of the next transaction where `group` needs them.
    fn choose_for(&mut self, conn: &Connection, group: &[Box<dyn Job>]) {
        let in_memory = group.iter().any(|job| job.changes_many_pages());
        if in_memory == self.in_memory {
            return;
        }
        match engine::keep_undo_in_memory(conn, in_memory) {
            Ok(()) => self.in_memory = in_memory,
            Err(err) => tracing::warn!(%err, "choosing where undo pages are kept failed"),
        }
    }
}

/// Where the group's transaction stands between two jobs.
#[derive(Clone, Copy, PartialEq)]
enum Open {
    /// No transaction is open (at the start, or after a lone job's failure undid it).
    No,
    /// A transaction is open and holds no job's changes.
    Empty,
    /// A transaction is open and holds changes of jobs that succeeded.
    Holding,
}

pub(super) fn commit_group(
    conn: &Connection,
    group: Vec<Box<dyn Job>>,
    sink: &Sink,
    pages: &Pages,
    undo: &mut Undo,
) {
    undo.choose_for(conn, &group);
    let mut ran = Vec::with_capacity(group.len());
    let mut committed_events = Vec::new();
    let mut rolled_back = None;
    let mut open = Open::No;
    let mut jobs = group.into_iter();
    while let Some(mut job) = jobs.next() {
        if open == Open::No {
            if let Err(err) = engine::begin(conn) {
                let failure = GroupFailure::from_error(&StoreError::from(err));
                job.abort(failure.to_error());
                for job in jobs.by_ref() {
                    job.abort(failure.to_error());
                }
                break;
            }
            open = Open::Empty;
        }
        let guarded = open == Open::Holding;
        if guarded {
            if let Err(err) = engine::run_cached(conn, "SAVEPOINT request") {
                job.abort(StoreError::from(err));
                if conn.is_autocommit() {
                    rolled_back = Some(GroupFailure::rolled_back());
                    break;
                }
                continue;
            }
        }
        let mut tx = Tx::new(conn);
        let ok = job.run(&mut tx);
        ran.push(job);
        if conn.is_autocommit() {
            // SQLite rolled the whole transaction back (disk full, I/O error): every change
            // of this group so far is gone.
            rolled_back = Some(GroupFailure::rolled_back());
            break;
        }
        let end = match (guarded, ok) {
            (true, true) => engine::run_cached(conn, "RELEASE request"),
            (true, false) => engine::run_cached(conn, "ROLLBACK TO request")
                .and_then(|()| engine::run_cached(conn, "RELEASE request")),
            (false, true) => Ok(()),
            (false, false) => {
                // The transaction holds this job's changes only: undo it whole.
                open = Open::No;
                engine::run_cached(conn, "ROLLBACK")
            }
        };
        if let Err(err) = end {
            tracing::error!(%err, "undoing or keeping a request's changes failed");
        }
        if open != Open::No && conn.is_autocommit() {
            rolled_back = Some(GroupFailure::rolled_back());
            break;
        }
        if ok {
            open = Open::Holding;
            committed_events.extend(tx.into_events());
        }
    }
    // The changed tables' versions are odd while the commit lands: no read in that time
    // keeps anything it saw.
    let landing = pages.landing();
    let failure = match rolled_back {
        Some(failure) => {
            static SAID: crate::repeats::Repeats = crate::repeats::Repeats::new();
            if let Some(left_out) = SAID.now() {
                tracing::error!(
                    left_out,
                    "SQLite rolled back a group commit (disk full or I/O error); its requests are answered 503"
                );
            }
            for job in jobs {
                job.abort(failure.to_error());
            }
            Some(failure)
        }
        None if open == Open::No => None,
        None => engine::commit(conn, !committed_events.is_empty())
            .err()
            .map(|err| {
                let _ = conn.execute_batch("ROLLBACK");
                let err = StoreError::from(err);
                static SAID: crate::repeats::Repeats = crate::repeats::Repeats::new();
                if let Some(left_out) = SAID.now() {
                    tracing::error!(%err, left_out, "a group commit failed; its requests are answered with an error");
                }
                GroupFailure::from_error(&err)
            }),
    };
    pages.landed(landing);
    for job in ran {
        job.answer(failure.as_ref());
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

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use crate::store::{Call, Result, Store, StoreError};

    /// A write that marks its name, then succeeds or fails as `ok` says.
    fn mark(name: &'static str, ok: bool) -> impl FnOnce(&mut crate::store::Tx<'_>) -> Result<()> {
        move |tx| {
            tx.execute("INSERT INTO marks (name) VALUES (?1)", [name])?;
            if ok {
                Ok(())
            } else {
                Err(StoreError::Internal(format!("{name} refused")))
            }
        }
    }

    /// Runs `writes` as one group: they are queued while the writer runs a job that waits
    /// for them, so the writer takes them all at once after it. Each is marked as changing
    /// many pages when `many_pages` says so. Their answers, in order.
    fn as_one_group(
        store: &Store,
        writes: Vec<(&'static str, bool)>,
        many_pages: bool,
    ) -> Vec<std::result::Result<(), String>> {
        let (started, running) = mpsc::channel();
        let (release, released) = mpsc::channel::<()>();
        let (held, done) = mpsc::channel();
        store
            .submit_write(
                move |_tx| {
                    let _ = started.send(());
                    let _ = released.recv();
                    Ok(())
                },
                Box::new(move |answer: Result<()>| {
                    let _ = held.send(answer.is_ok());
                }),
                false,
            )
            .expect("the holding write is queued");
        running.recv().expect("the writer runs the holding write");
        let (answered, answers) = mpsc::channel();
        for (index, (name, ok)) in writes.iter().copied().enumerate() {
            let answered = answered.clone();
            store
                .submit_write(
                    mark(name, ok),
                    Box::new(move |answer: Result<()>| {
                        let _ = answered.send((index, answer.map_err(|e| e.to_string())));
                    }),
                    many_pages,
                )
                .expect("a write is queued");
        }
        release.send(()).expect("the holding write is released");
        assert_eq!(done.recv().ok(), Some(true), "the holding write committed");
        let mut got: Vec<_> = answers.iter().take(writes.len()).collect();
        got.sort_by_key(|(index, _)| *index);
        got.into_iter().map(|(_, answer)| answer).collect()
    }

    fn marks(store: &Store) -> Vec<String> {
        Call::read(store, |conn| {
            let lite = conn.lite().expect("a SQLite store");
            let mut names = lite.prepare("SELECT name FROM marks ORDER BY name")?;
            let names = names.query_map([], |row| row.get::<_, String>(0))?;
            Ok(names.collect::<rusqlite::Result<Vec<_>>>()?)
        })
        .wait()
        .expect("the marks")
    }

    #[test]
    fn a_failing_request_undoes_only_its_own_changes_whether_it_runs_first_or_after_others() {
        // Both places SQLite may keep the undo pages: a buffer (a group of small writes) and
        // memory (a group with a write that changes many pages).
        for many_pages in [false, true] {
            let dir = tempfile::tempdir().expect("a temporary folder");
            let store = Store::open(&dir.path().join("store.sqlite")).expect("a store");
            Call::write(&store, |tx| {
                tx.execute_batch("CREATE TABLE marks (name TEXT)")?;
                Ok(())
            })
            .wait()
            .expect("the marks table");

            // The first fails alone in the transaction, the third after another's changes.
            let answers = as_one_group(
                &store,
                vec![("a", false), ("b", true), ("c", false), ("d", true)],
                many_pages,
            );
            let refused = |name: &str| Err(format!("{name} refused"));
            assert_eq!(answers, vec![refused("a"), Ok(()), refused("c"), Ok(())]);
            assert_eq!(marks(&store), ["b", "d"], "many pages: {many_pages}");

            // A group whose every request fails commits nothing, and the writer goes on.
            let answers = as_one_group(&store, vec![("e", false), ("f", false)], many_pages);
            assert_eq!(answers, vec![refused("e"), refused("f")]);
            let answers = as_one_group(&store, vec![("g", true)], many_pages);
            assert_eq!(answers, vec![Ok(())]);
            assert_eq!(marks(&store), ["b", "d", "g"], "many pages: {many_pages}");
            store.close();
        }
    }

    #[test]
    fn a_group_with_a_write_that_changes_many_pages_keeps_its_undo_pages_in_memory() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let store = Store::open(&dir.path().join("store.sqlite")).expect("a store");
        // SQLite's `temp_store`: 1 keeps undo pages in a buffer that spills to a file, 2 in
        // memory.
        let temp_store = |many_pages: bool| {
            let call = Call::write(&store, |tx| {
                let lite = tx.lite().expect("a SQLite store");
                Ok(lite.query_row("PRAGMA temp_store", [], |row| row.get::<_, i64>(0))?)
            });
            let call = if many_pages {
                call.changing_many_pages()
            } else {
                call
            };
            call.wait().expect("the setting")
        };
        assert_eq!(temp_store(false), 1);
        assert_eq!(temp_store(true), 2);
        assert_eq!(temp_store(true), 2);
        assert_eq!(temp_store(false), 1);
        store.close();
    }
}
