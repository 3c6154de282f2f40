//! Pairing codes waiting for their device, shared by every process serving the store. A row
//! holds the SHA-256 hash of the code (never the code), the key it will make and when it
//! ends. Redeeming is one `DELETE … RETURNING`: of two processes redeeming the same code at
//! once, exactly one gets the row back. Opening forgets the ended codes and keeps at most
//! `max_waiting`, dropping the ones that end first; a code whose hash is already waiting is
//! not stored (the caller draws another).

use rusqlite::params;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::{Call, Result, Store, Tx};
use crate::domain::key::NewKey;
use crate::domain::pairing::WaitingPairing;

const COLUMNS: &str = "name, role, plan, per_minute, per_day, expires_at";

fn from_row(row: &Row<'_>) -> DbResult<WaitingPairing> {
    // A pairing never makes an admin key (refused when it is opened).
    let (role, plan, custom) = super::keys::terms(row, 1)?;
    Ok(WaitingPairing {
        key: NewKey {
            name: row.get(0)?,
            role,
            plan,
            custom,
        },
        expires_at: row.get(5)?,
    })
}

fn open(
    tx: &Tx<'_>,
    code_hash: &str,
    pairing: &WaitingPairing,
    now: i64,
    max_waiting: usize,
) -> Result<bool> {
    tx.prepare_cached("DELETE FROM pairings WHERE expires_at <= ?1")?
        .execute([now])?;
    let waiting: i64 = tx
        .prepare_cached("SELECT COUNT(*) FROM pairings")?
        .query_row([], |row| row.get(0))?;
    let max = i64::try_from(max_waiting).unwrap_or(i64::MAX).max(1);
    if waiting >= max {
        tx.prepare_cached(
            "DELETE FROM pairings WHERE code_hash IN
                 (SELECT code_hash FROM pairings ORDER BY expires_at, code_hash LIMIT ?1)",
        )?
        .execute([waiting - max + 1])?;
    }
    let key = &pairing.key;
    let stored = tx
        .prepare_cached(
            "INSERT INTO pairings (code_hash, name, role, plan, per_minute, per_day, expires_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (code_hash) DO NOTHING",
        )?
        .execute(params![
            code_hash,
            key.name,
            key.role.as_str(),
            key.plan.as_str(),
            key.custom.map(|q| q.per_minute as i64),
            key.custom.map(|q| q.per_day as i64),
            pairing.expires_at
        ])?;
    Ok(stored == 1)
}

fn find(conn: &Connection, code_hash: &str, now: i64) -> Result<Option<WaitingPairing>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM pairings WHERE code_hash = ?1 AND expires_at > ?2"
        ))?
        .query_row(params![code_hash, now], from_row)
        .optional()?)
}

/// Deletes the code's row and answers it, if it had not ended at `now`.
fn redeem(tx: &Tx<'_>, code_hash: &str, now: i64) -> Result<Option<WaitingPairing>> {
    let taken = tx
        .prepare_cached(&format!(
            "DELETE FROM pairings WHERE code_hash = ?1 RETURNING {COLUMNS}"
        ))?
        .query_row([code_hash], from_row)
        .optional()?;
    Ok(taken.filter(|p| p.expires_at > now))
}

/// Forgets the codes that ended at `now`; how many went.
pub(super) fn prune(tx: &Tx<'_>, now: i64) -> Result<usize> {
    Ok(tx
        .prepare_cached("DELETE FROM pairings WHERE expires_at <= ?1")?
        .execute([now])?)
}

/// Waiting pairing codes: `store.pairings()`. Codes are named by the SHA-256 hash of their
/// normalised form.
pub struct Pairings<'s>(pub(super) &'s Store);

impl<'s> Pairings<'s> {
    /// Stores a code waiting for its device, at `now`, keeping at most `max_waiting` codes.
    /// `false` (nothing stored) when a code with this hash is already waiting.
    pub fn open(
        &self,
        code_hash: String,
        pairing: WaitingPairing,
        now: i64,
        max_waiting: usize,
    ) -> Call<'s, bool> {
        Call::write(self.0, move |tx| {
            open(tx, &code_hash, &pairing, now, max_waiting)
        })
    }

    /// The waiting code with this hash, if it has not ended at `now` or been used.
    pub fn find(&self, code_hash: String, now: i64) -> Call<'s, Option<WaitingPairing>> {
        Call::read(self.0, move |c| find(c, &code_hash, now))
    }

    /// Uses up the code: answers its pairing once, on whichever process, and never again.
    pub fn redeem(&self, code_hash: String, now: i64) -> Call<'s, Option<WaitingPairing>> {
        Call::write(self.0, move |tx| redeem(tx, &code_hash, now))
    }
}
