//! Wrong staff PINs and the locks they start, shared by every process serving the store, by
//! folded name. A wrong PIN adds one to its name's count for its second in one additive
//! statement (`INSERT … ON CONFLICT DO UPDATE SET failures = failures + 1`), so the counts
//! of every process add up; the lock decision sums the name's seconds still inside the
//! window, in the same write. A lock is a row with its end; a right PIN deletes the name's
//! rows.

use rusqlite::{params, OptionalExtension};

use super::db::Connection;
use super::{Call, Result, Store, Tx};
use crate::domain::staff::PinLock;

/// Counts a wrong PIN for `name` at `now`; the end of the lock when it starts one.
fn fail(tx: &Tx<'_>, name: &str, now: i64, policy: PinLock) -> Result<Option<i64>> {
    tx.prepare_cached(
        "INSERT INTO sign_in_failures (name, at, failures) VALUES (?1, ?2, 1)
         ON CONFLICT (name, at) DO UPDATE SET failures = sign_in_failures.failures + 1",
    )?
    .execute(params![name, now])?;
    tx.prepare_cached("DELETE FROM sign_in_failures WHERE name = ?1 AND at <= ?2")?
        .execute(params![name, now - policy.window])?;
    let recent: i64 = tx
        .prepare_cached(
            "SELECT CAST(COALESCE(SUM(failures), 0) AS BIGINT)
             FROM sign_in_failures WHERE name = ?1",
        )?
        .query_row([name], |row| row.get(0))?;
    if recent < policy.failures {
        return Ok(None);
    }
    let until = now + policy.lock_for;
    tx.prepare_cached(
        "INSERT INTO sign_in_locks (name, until) VALUES (?1, ?2)
         ON CONFLICT (name) DO UPDATE SET until = excluded.until",
    )?
    .execute(params![name, until])?;
    tx.prepare_cached("DELETE FROM sign_in_failures WHERE name = ?1")?
        .execute([name])?;
    Ok(Some(until))
}

fn locked_until(conn: &Connection, name: &str, now: i64) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT until FROM sign_in_locks WHERE name = ?1 AND until > ?2")?
        .query_row(params![name, now], |row| row.get(0))
        .optional()?)
}

fn clear(tx: &Tx<'_>, name: &str) -> Result<()> {
    tx.prepare_cached("DELETE FROM sign_in_failures WHERE name = ?1")?
        .execute([name])?;
    tx.prepare_cached("DELETE FROM sign_in_locks WHERE name = ?1")?
        .execute([name])?;
    Ok(())
}

/// Forgets wrong PINs older than the window and ended locks, at `now`; how many rows went.
pub(super) fn prune(tx: &Tx<'_>, now: i64, policy: PinLock) -> Result<usize> {
    let failures = tx
        .prepare_cached("DELETE FROM sign_in_failures WHERE at <= ?1")?
        .execute([now - policy.window])?;
    let locks = tx
        .prepare_cached("DELETE FROM sign_in_locks WHERE until <= ?1")?
        .execute([now])?;
    Ok(failures + locks)
}

/// Wrong-PIN counts and locks: `store.sign_ins()`. Names are folded by the caller.
pub struct SignIns<'s>(pub(super) &'s Store);

impl<'s> SignIns<'s> {
    /// Counts a wrong PIN for `name` at `now`: the end of the lock (Unix seconds) when this
    /// one makes `policy.failures` within `policy.window` and locks the name.
    pub fn fail(&self, name: String, now: i64, policy: PinLock) -> Call<'s, Option<i64>> {
        Call::write(self.0, move |tx| fail(tx, &name, now, policy))
    }

    /// When the lock on `name` ends, if it is locked at `now`.
    pub fn locked_until(&self, name: String, now: i64) -> Call<'s, Option<i64>> {
        Call::read(self.0, move |c| locked_until(c, &name, now))
    }

    /// Forgets the wrong PINs (and any lock) of `name` after a right one.
    pub fn clear(&self, name: String) -> Call<'s, ()> {
        Call::write(self.0, move |tx| clear(tx, &name))
    }
}
