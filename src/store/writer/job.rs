//! The job protocol between the writer and a request: a job runs once in the group's
//! transaction (see `group`) and keeps its own result; once the group's fate is known the
//! writer has it answer, with that result, or with the group's failure when the group did not
//! commit (so no one is told of a change that was undone). A job that panics is answered as an
//! internal error, and its panic is logged; a job the writer cannot run is answered without
//! running.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::store::tx::Tx;
use crate::store::{Result, StoreError};

/// Where a job's answer goes: a tokio oneshot for async callers, a std channel for the
/// command line.
pub type Reply<T> = Box<dyn FnOnce(Result<T>) + Send>;

/// One request's write, as the writer runs it.
pub(super) trait Job: Send {
    /// Runs the job and keeps its result: whether it succeeded (the writer then keeps its
    /// changes; else it undoes them, see `group`).
    fn run(&mut self, tx: &mut Tx<'_>) -> bool;
    /// Answers the job once its group has committed (`None`) or failed.
    fn answer(self: Box<Self>, failure: Option<&GroupFailure>);
    /// Answers the job without running it.
    fn abort(self: Box<Self>, err: StoreError);
    /// Whether the job changes many pages (a sale): see `group`.
    fn changes_many_pages(&self) -> bool;
}

/// A closure run on the writer's transaction, answered through `reply`.
pub(super) struct WriteJob<F, T> {
    f: Option<F>,
    result: Option<Result<T>>,
    reply: Reply<T>,
    many_pages: bool,
}

impl<F, T> WriteJob<F, T> {
    pub(super) fn new(f: F, reply: Reply<T>, many_pages: bool) -> Self {
        Self {
            f: Some(f),
            result: None,
            reply,
            many_pages,
        }
    }
}

impl<F, T> Job for WriteJob<F, T>
where
    T: Send + 'static,
    F: FnOnce(&mut Tx<'_>) -> Result<T> + Send + 'static,
{
    fn run(&mut self, tx: &mut Tx<'_>) -> bool {
        let Some(f) = self.f.take() else {
            return false;
        };
        let result = catch_unwind(AssertUnwindSafe(|| f(tx))).unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(panic = %what, "a write panicked; its changes are undone");
            Err(StoreError::Internal(format!("a write panicked: {what}")))
        });
        let ok = result.is_ok();
        self.result = Some(result);
        ok
    }

    fn answer(self: Box<Self>, failure: Option<&GroupFailure>) {
        let answer = match (self.result, failure) {
            (Some(Ok(_)), Some(failure)) => Err(failure.to_error()),
            (Some(result), _) => result,
            (None, _) => Err(StoreError::Internal("a write was answered unrun".into())),
        };
        (self.reply)(answer);
    }

    fn abort(self: Box<Self>, err: StoreError) {
        (self.reply)(Err(err));
    }

    fn changes_many_pages(&self) -> bool {
        self.many_pages
    }
}

/// Why a whole group failed to commit; every job in it is told.
#[derive(Clone)]
pub(super) struct GroupFailure {
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
    pub(super) fn from_error(err: &StoreError) -> Self {
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
    pub(super) fn rolled_back() -> Self {
        Self {
            kind: FailureKind::Unavailable,
            message: "the group's transaction was rolled back by SQLite".into(),
        }
    }

    pub(super) fn to_error(&self) -> StoreError {
        match self.kind {
            FailureKind::Busy => StoreError::Busy,
            FailureKind::Unavailable => StoreError::Unavailable(self.message.clone()),
            FailureKind::Internal => StoreError::Internal(self.message.clone()),
        }
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
}
