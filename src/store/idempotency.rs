//! `Idempotency-Key`: a retried request replays the first answer instead of acting again.
//! The record is written in the same transaction (and savepoint) as the change it made,
//! so an answer is recorded exactly when its change is.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::{Result, StoreError, Tx};
use crate::domain::DomainError;

/// How long a recorded answer is replayed, in seconds.
pub const TTL_SECS: i64 = 24 * 60 * 60;

/// One idempotent request: whose it is, the key it came with and a hash of its body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Scope {
    pub key_id: i64,
    pub key: String,
    pub request_hash: String,
}

/// What an idempotent request answers.
#[derive(Debug)]
pub enum Answer<T> {
    /// It acted now.
    Fresh(T),
    /// It had acted before; this is the first answer, as sent then.
    Replayed { status: u16, body: String },
}

/// Runs `act` once per scope: a repeat with the same body within [`TTL_SECS`] gets the
/// first answer back; the same key with another body is refused. Only a successful answer
/// is recorded: a request that failed changed nothing and may be retried as it is.
pub fn once<T, F>(tx: &mut Tx<'_>, scope: Option<&Scope>, status: u16, act: F) -> Result<Answer<T>>
where
    T: Serialize,
    F: FnOnce(&mut Tx<'_>) -> Result<T>,
{
    let Some(scope) = scope else {
        return act(tx).map(Answer::Fresh);
    };
    let now = chrono::Utc::now().timestamp();
    let previous: Option<(String, u16, String, i64)> = tx
        .prepare_cached(
            "SELECT request_hash, status, body, created_at FROM idempotency WHERE key_id = ?1 AND idem_key = ?2",
        )?
        .query_row(params![scope.key_id, scope.key], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })
        .optional()?;
    if let Some((hash, status, body, created_at)) = previous {
        if now - created_at < TTL_SECS {
            if hash != scope.request_hash {
                return Err(DomainError::IdempotencyKeyReused.into());
            }
            return Ok(Answer::Replayed { status, body });
        }
    }
    let value = act(tx)?;
    let body = serde_json::to_string(&value)
        .map_err(|e| StoreError::Internal(format!("cannot encode an answer: {e}")))?;
    tx.prepare_cached(
        "INSERT OR REPLACE INTO idempotency (key_id, idem_key, request_hash, status, body, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![scope.key_id, scope.key, scope.request_hash, status, body, now])?;
    Ok(Answer::Fresh(value))
}

/// Forgets answers older than [`TTL_SECS`].
pub fn prune(tx: &Tx<'_>) -> Result<usize> {
    let cutoff = chrono::Utc::now().timestamp() - TTL_SECS;
    Ok(tx.execute("DELETE FROM idempotency WHERE created_at < ?1", [cutoff])?)
}
