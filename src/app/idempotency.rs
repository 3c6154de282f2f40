//! Idempotent requests in flight in this process: a repeat of a request that is still being
//! processed is refused (409 `conflict`) rather than queued behind it.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use crate::domain::idempotency::Scope;
use crate::domain::DomainError;

/// The `(key id, Idempotency-Key)` pairs being processed now.
#[derive(Default)]
pub struct InFlight {
    pairs: Arc<Mutex<HashSet<(i64, String)>>>,
}

/// Marks a request in flight until it is dropped (answered, failed or abandoned).
pub struct Mark {
    pairs: Arc<Mutex<HashSet<(i64, String)>>>,
    pair: (i64, String),
}

impl InFlight {
    /// Marks `scope` as being processed, or refuses when it already is.
    pub fn begin(&self, scope: &Scope) -> Result<Mark, DomainError> {
        let pair = (scope.key_id, scope.key.clone());
        let fresh = self
            .pairs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(pair.clone());
        if !fresh {
            return Err(DomainError::IdempotencyInProgress);
        }
        Ok(Mark {
            pairs: self.pairs.clone(),
            pair,
        })
    }
}

impl Drop for Mark {
    fn drop(&mut self) {
        self.pairs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.pair);
    }
}
