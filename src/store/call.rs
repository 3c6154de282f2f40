//! [`Call`]: one store operation, ready to run. Every named operation of the facade returns
//! one, so a caller picks how to wait for it: `.await` on the async runtime (the HTTP
//! handlers), or [`Call::wait`] on a plain thread (the command line, start-up, maintenance).
//!
//! A call is either a read (run on a reader thread) or a write (run inside the writer's next
//! group commit and answered once that group is durable). [`Call::once`] turns a write into
//! an idempotent one: its key is claimed in the same write as the change, undone with it.
//!
//! Who made a change: a request made with a staff member's session runs inside
//! [`as_member`] (the API's authentication does it), and every write sent from inside it
//! carries the member into its `Tx`, so the stock history and the events name them whatever
//! operation made the change.

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::task::{Context, Poll};

use serde::Serialize;
use tokio::sync::oneshot;

use super::claim::Claim;
use super::db::Connection;
use super::idempotency;
use super::{Result, Store, StoreError, Tx};
use crate::domain::idempotency::Answer;
use crate::domain::idempotency::Scope;
use crate::domain::staff::MemberRef;

tokio::task_local! {
    /// The staff member whose session the current request runs under.
    static MEMBER: MemberRef;
}

/// Runs `f` as a request of `member` (when there is one): writes sent from inside it name
/// the member in the stock history and the events.
pub async fn as_member<F: Future>(member: Option<MemberRef>, f: F) -> F::Output {
    match member {
        Some(member) => MEMBER.scope(member, f).await,
        None => f.await,
    }
}

type ReadFn<T> = Box<dyn FnOnce(&Connection) -> Result<T> + Send>;
type WriteFn<T> = Box<dyn FnOnce(&mut Tx<'_>) -> Result<T> + Send>;

enum Job<T> {
    Read(ReadFn<T>),
    Write(WriteFn<T>),
}

/// A store operation not yet sent: `.await` it, or [`Call::wait`] for it.
#[must_use = "a store call does nothing until it is awaited or waited for"]
pub struct Call<'s, T> {
    store: &'s Store,
    job: Job<T>,
    /// A write that changes many pages (a sale): see [`Call::changing_many_pages`].
    many_pages: bool,
}

impl<'s, T: Send + 'static> Call<'s, T> {
    pub(super) fn read(
        store: &'s Store,
        f: impl FnOnce(&Connection) -> Result<T> + Send + 'static,
    ) -> Self {
        Self {
            store,
            job: Job::Read(Box::new(f)),
            many_pages: false,
        }
    }

    pub(super) fn write(
        store: &'s Store,
        f: impl FnOnce(&mut Tx<'_>) -> Result<T> + Send + 'static,
    ) -> Self {
        Self {
            store,
            job: Job::Write(Box::new(f)),
            many_pages: false,
        }
    }

    /// Marks a write that changes many pages (a sale's lines, a refund's): the writer keeps
    /// the undo pages of a group with such a write in memory (see `writer::group`).
    pub(super) fn changing_many_pages(mut self) -> Self {
        self.many_pages = true;
        self
    }

    /// Runs the call on this thread's time: blocks until it is answered. Never call it on
    /// an async worker thread.
    pub fn wait(self) -> Result<T> {
        let (reply, answer) = std::sync::mpsc::sync_channel(1);
        self.submit(Box::new(move |result| {
            let _ = reply.send(result);
        }))?;
        answer.recv().map_err(|_| StoreError::Closed)?
    }

    fn submit(self, reply: Box<dyn FnOnce(Result<T>) + Send>) -> Result<()> {
        let many_pages = self.many_pages;
        match self.job {
            Job::Read(f) => self.store.submit_read(f, reply),
            Job::Write(f) => match MEMBER.try_with(Clone::clone) {
                Ok(member) => self.store.submit_write(
                    move |tx: &mut Tx<'_>| {
                        tx.set_member(Some(member));
                        f(tx)
                    },
                    reply,
                    many_pages,
                ),
                Err(_) => self.store.submit_write(f, reply, many_pages),
            },
        }
    }
}

impl<'s, T: Serialize + Send + 'static> Call<'s, T> {
    /// Runs this write at most once per `scope` (when there is one): the key is claimed
    /// first, in the same write as the change (undone with it), and the answer is recorded
    /// with it. A repeat gets the recorded answer back; the same key with another request
    /// is refused.
    pub fn once(self, scope: Option<Scope>) -> Call<'s, Answer<T>> {
        let store = self.store;
        let many_pages = self.many_pages;
        let call = match self.job {
            Job::Write(f) => Call::write(store, move |tx| idempotency::once(tx, scope.as_ref(), f)),
            Job::Read(f) => Call::read(store, move |c| f(c).map(Answer::Fresh)),
        };
        Call { many_pages, ..call }
    }
}

impl<T: Send + 'static> IntoFuture for Call<'_, T> {
    type Output = Result<T>;
    type IntoFuture = Pending<T>;

    fn into_future(self) -> Pending<T> {
        let Call {
            store,
            job,
            many_pages,
        } = self;
        let call = Call {
            store,
            job: claimed(job),
            many_pages,
        };
        let (reply, answer) = oneshot::channel();
        let submitted = call.submit(Box::new(move |result| {
            let _ = reply.send(result);
        }));
        Pending {
            state: submitted.map(|()| answer).map_err(Some),
        }
    }
}

/// A write sent on behalf of a request (inside a [`Claim`] scope) runs only if the request
/// has not been given up by then.
fn claimed<T: Send + 'static>(job: Job<T>) -> Job<T> {
    match (job, Claim::current()) {
        (Job::Write(f), Some(claim)) => Job::Write(Box::new(move |tx| {
            if claim.take() {
                f(tx)
            } else {
                Err(StoreError::Internal(
                    "the request was given up before its write ran".into(),
                ))
            }
        })),
        (job, _) => job,
    }
}

/// A call sent to the store, answered when its read ran or its write is durable.
pub struct Pending<T> {
    state: std::result::Result<oneshot::Receiver<Result<T>>, Option<StoreError>>,
}

impl<T> Future for Pending<T> {
    type Output = Result<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<T>> {
        match &mut self.state {
            Ok(answer) => Pin::new(answer)
                .poll(cx)
                .map(|received| received.unwrap_or(Err(StoreError::Closed))),
            Err(err) => Poll::Ready(Err(err.take().unwrap_or(StoreError::Closed))),
        }
    }
}
