//! Forgetting what is no longer needed: old change events and idempotency records.

use super::{events, idempotency, Result, Tx};

/// Prunes old events and idempotency records; how many rows went.
pub(super) fn prune(tx: &mut Tx<'_>) -> Result<usize> {
    Ok(events::prune(tx)? + idempotency::prune(tx)?)
}
