//! A request's claim on its writes, so that a write whose request has timed out or gone
//! away is never committed after the client was answered without it.
//!
//! The HTTP layer runs each request inside [`Claim::scope`]. A write sent from inside that
//! scope takes the claim when the writer starts running it; a write finding the claim
//! abandoned is skipped. On timeout the HTTP layer calls [`Claim::abandon`]: if no write has
//! started, nothing will, and 408 is true; if one has, the request waits for its answer
//! instead (so a client is never told "no" about a change that happened).

use std::future::Future;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

const OPEN: u8 = 0;
const TAKEN: u8 = 1;
const ABANDONED: u8 = 2;

tokio::task_local! {
    static CLAIM: Arc<Claim>;
}

/// Whether a request's writes may still run.
#[derive(Debug, Default)]
pub struct Claim(AtomicU8);

impl Claim {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// Runs `fut` with this claim over the writes it sends.
    pub async fn scope<F: Future>(self: Arc<Self>, fut: F) -> F::Output {
        CLAIM.scope(self, fut).await
    }

    /// The claim of the request running on this task, if any.
    pub(super) fn current() -> Option<Arc<Self>> {
        CLAIM.try_with(Arc::clone).ok()
    }

    /// Called by the writer before a write runs: whether it may.
    pub(super) fn take(&self) -> bool {
        match self
            .0
            .compare_exchange(OPEN, TAKEN, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(state) => state == TAKEN,
        }
    }

    /// Gives up the request's writes: `true` if none has started (none ever will), `false`
    /// if one has (its answer must be awaited).
    pub fn abandon(&self) -> bool {
        match self
            .0
            .compare_exchange(OPEN, ABANDONED, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(state) => state == ABANDONED,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_abandoned_claim_lets_no_write_start() {
        let claim = Claim::default();
        assert!(claim.abandon());
        assert!(!claim.take());
    }

    #[test]
    fn a_claim_taken_by_a_write_cannot_be_abandoned() {
        let claim = Claim::default();
        assert!(claim.take());
        assert!(
            claim.take(),
            "a second write of the same request may run too"
        );
        assert!(!claim.abandon());
    }
}
