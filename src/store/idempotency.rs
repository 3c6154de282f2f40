//! Running a write at most once per idempotency scope.
//!
//! The key is claimed first: an `INSERT` that does nothing when the key is taken, in the
//! same transaction (and savepoint) as the change. Only the request that claimed the key
//! acts; it then records its answer (the record it returned, as JSON) beside the claim. A
//! claim older than [`TTL_SECS`] may be claimed again. A request that fails rolls back its
//! claim with its change, so it may be retried as it is. Which HTTP status a replayed answer
//! carries is not the store's business: the record holds only the answer.

use rusqlite::params;
use serde::Serialize;

use super::{Result, StoreError, Tx};
use crate::domain::idempotency::{Answer, Scope};
use crate::domain::DomainError;

/// How long a recorded answer is replayed, in seconds.
pub const TTL_SECS: i64 = 24 * 60 * 60;

/// Runs `act` once per scope (see the module header).
pub fn once<T, F>(tx: &mut Tx<'_>, scope: Option<&Scope>, act: F) -> Result<Answer<T>>
where
    T: Serialize,
    F: FnOnce(&mut Tx<'_>) -> Result<T>,
{
    let Some(scope) = scope else {
        return act(tx).map(Answer::Fresh);
    };
    let now = chrono::Utc::now().timestamp();
    if !claim(tx, scope, now)? {
        let (hash, answer): (String, Option<String>) = tx
            .prepare_cached(
                "SELECT request_hash, answer FROM idempotency_records WHERE key_id = ?1 AND idem_key = ?2",
            )?
            .query_row(params![scope.key_id, scope.key], |row| {
                Ok((row.get(0)?, row.get(1)?))
            })?;
        if hash != scope.request_hash {
            return Err(DomainError::IdempotencyKeyReused.into());
        }
        return match answer {
            Some(answer) => Ok(Answer::Replayed(answer)),
            // Claimed by a request whose change is not committed yet.
            None => Err(DomainError::IdempotencyInProgress.into()),
        };
    }
    let value = act(tx)?;
    let answer = serde_json::to_string(&value)
        .map_err(|e| StoreError::Internal(format!("cannot encode an answer: {e}")))?;
    tx.prepare_cached(
        "UPDATE idempotency_records SET answer = ?3 WHERE key_id = ?1 AND idem_key = ?2",
    )?
    .execute(params![scope.key_id, scope.key, answer])?;
    Ok(Answer::Fresh(value))
}

/// Claims the scope's key for this request: a new key, or one whose record has expired.
/// `false` when a live record holds it.
fn claim(tx: &Tx<'_>, scope: &Scope, now: i64) -> Result<bool> {
    let inserted = tx
        .prepare_cached(
            "INSERT INTO idempotency_records (key_id, idem_key, request_hash, answer, created_at)
             VALUES (?1, ?2, ?3, NULL, ?4)
             ON CONFLICT (key_id, idem_key) DO NOTHING",
        )?
        .execute(params![scope.key_id, scope.key, scope.request_hash, now])?;
    if inserted == 1 {
        return Ok(true);
    }
    let reclaimed = tx
        .prepare_cached(
            "UPDATE idempotency_records SET request_hash = ?3, answer = NULL, created_at = ?4
             WHERE key_id = ?1 AND idem_key = ?2 AND created_at <= ?5",
        )?
        .execute(params![
            scope.key_id,
            scope.key,
            scope.request_hash,
            now,
            now - TTL_SECS
        ])?;
    Ok(reclaimed == 1)
}

/// Forgets answers older than [`TTL_SECS`].
pub fn prune(tx: &Tx<'_>) -> Result<usize> {
    let cutoff = chrono::Utc::now().timestamp() - TTL_SECS;
    Ok(tx
        .prepare_cached("DELETE FROM idempotency_records WHERE created_at < ?1")?
        .execute([cutoff])?)
}
