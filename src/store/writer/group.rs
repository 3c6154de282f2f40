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
) {
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
    /// for them, so the writer takes them all at once after it. Their answers, in order.
    fn as_one_group(
        store: &Store,
        writes: Vec<(&'static str, bool)>,
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
        );
        let refused = |name: &str| Err(format!("{name} refused"));
        assert_eq!(answers, vec![refused("a"), Ok(()), refused("c"), Ok(())]);
        assert_eq!(marks(&store), ["b", "d"]);

        // A group whose every request fails commits nothing, and the writer goes on.
        let answers = as_one_group(&store, vec![("e", false), ("f", false)]);
        assert_eq!(answers, vec![refused("e"), refused("f")]);
        let answers = as_one_group(&store, vec![("g", true)]);
        assert_eq!(answers, vec![Ok(())]);
        assert_eq!(marks(&store), ["b", "d", "g"]);
        store.close();
    }
}
