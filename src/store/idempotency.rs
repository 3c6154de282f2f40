//! Running a write at most once per idempotency scope.
//!
//! The key's record is looked up first, in the same transaction as the change (and undone with
//! it): the writer holds the store's write lock from the group's `BEGIN` to its `COMMIT`
//! (SQLite's file lock; on PostgreSQL the store-wide advisory lock), so no other write can take
//! the key between the look and the change. Only when no live record holds the key does the
//! request act; it then records its answer (the record it returned, as JSON) with the key, in
//! one statement. A record older than [`TTL_SECS`] is replaced. A request that fails leaves no
//! record, so it may be retried as it is. Which HTTP status a replayed answer carries is not
//! the store's business: the record holds only the answer.

use rusqlite::params;
use serde::Serialize;

use super::db::OptionalExtension;
use super::{Result, StoreError, Tx};
use crate::domain::idempotency::{Answer, Scope};
use crate::domain::DomainError;

/// How long a recorded answer is replayed, in seconds (the contract's lifetime).
pub const TTL_SECS: i64 = crate::contract::IDEMPOTENCY_HOURS * 60 * 60;

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
    if let Some((hash, answer)) = live_record(tx, scope, now)? {
        if hash != scope.request_hash {
            return Err(DomainError::IdempotencyKeyReused.into());
        }
        return match answer {
            Some(answer) => Ok(Answer::Replayed(answer)),
            // Claimed by a request whose change is not committed yet (a store written by
            // an earlier version, which claimed keys before acting).
            None => Err(DomainError::IdempotencyInProgress.into()),
        };
    }
    let value = act(tx)?;
    let answer = serde_json::to_string(&value)
        .map_err(|e| StoreError::Internal(format!("cannot encode an answer: {e}")))?;
    tx.prepare_cached(
        "INSERT INTO idempotency_records (key_id, idem_key, request_hash, answer, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (key_id, idem_key) DO UPDATE SET request_hash = excluded.request_hash,
             answer = excluded.answer, created_at = excluded.created_at",
    )?
    .execute(params![
        scope.key_id,
        scope.key,
        scope.request_hash,
        answer,
        now
    ])?;
    Ok(Answer::Fresh(value))
}

/// The request hash and answer of the record holding the scope's key, unless there is none
/// or it has expired.
fn live_record(tx: &Tx<'_>, scope: &Scope, now: i64) -> Result<Option<(String, Option<String>)>> {
    Ok(tx
        .prepare_cached(
            "SELECT request_hash, answer FROM idempotency_records
             WHERE key_id = ?1 AND idem_key = ?2 AND created_at > ?3",
        )?
        .query_row(params![scope.key_id, scope.key, now - TTL_SECS], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .optional()?)
}

/// Forgets answers older than [`TTL_SECS`]. The table has no index by age (migration 17):
/// this reads it through, every ten minutes, and it holds a day's idempotent writes.
pub fn prune(tx: &Tx<'_>) -> Result<usize> {
    let cutoff = chrono::Utc::now().timestamp() - TTL_SECS;
    Ok(tx
        .prepare_cached("DELETE FROM idempotency_records WHERE created_at < ?1")?
        .execute([cutoff])?)
}
