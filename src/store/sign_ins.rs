//! Staff sign-in attempts and the locks they start, shared by every process serving the
//! store, by subject (a folded name and the device's network, see `app::staff`). A sign-in is
//! one write before its PIN is checked ([`SignIns::claim`]: refused if the subject is locked,
//! else counted as a wrong PIN, and the member read) and, only when the PIN is right, one
//! write after ([`SignIns::signed_in`]: the subject's count cleared and the session opened):
//! so however many sign-ins run at once, no more PINs are checked than the lock allows.
//! A wrong PIN adds one to its name's count for its second in one additive
//! statement (`INSERT … ON CONFLICT DO UPDATE SET failures = failures + 1`), so the counts
//! of every process add up; the lock decision sums the name's seconds still inside the
//! window, in the same write. A lock is a row with its end; a right PIN deletes the name's
//! rows.

use rusqlite::params;

use super::db::{Connection, DbResult, OptionalExtension};
use super::{staff, Call, Result, Store, Tx};
use crate::domain::staff::{PinLock, StaffMember};

/// What [`SignIns::claim`] found.
#[derive(Debug)]
pub enum Claim {
    /// The subject is locked until this Unix second; nothing was counted.
    Locked(i64),
    /// The attempt is counted; the enabled member of that name, with the hash of their PIN.
    Counted(Option<(StaffMember, String)>),
}

fn claim(tx: &Tx<'_>, subject: &str, name: &str, now: i64, policy: PinLock) -> Result<Claim> {
    if let Some(until) = locked_until(tx, subject, now)? {
        return Ok(Claim::Locked(until));
    }
    fail(tx, subject, now, policy)?;
    let member = staff::by_name(tx, name)?.filter(|(member, _)| member.is_enabled());
    Ok(Claim::Counted(member))
}

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

/// Whether `subject` (a folded name, `@`, the device's network) is one of `folded`'s.
fn subject_of(subject: &str, folded: &str) -> bool {
    subject
        .rsplit_once('@')
        .is_some_and(|(name, _)| name == folded)
}

/// Lifts every lock on the folded name `folded`, from every device, and forgets its wrong
/// PINs; how many rows went. The subjects are read and matched here, not with a pattern in
/// SQL, so no character of a name can widen the match.
fn lift(tx: &Tx<'_>, folded: &str) -> Result<usize> {
    let mut gone = 0;
    for table in ["sign_in_failures", "sign_in_locks"] {
        let subjects = tx
            .prepare_cached(&format!("SELECT DISTINCT name FROM {table}"))?
            .query_map([], |row| row.get::<_, String>(0))?
            .collect::<DbResult<Vec<_>>>()?;
        let mut delete = tx.prepare_cached(&format!("DELETE FROM {table} WHERE name = ?1"))?;
        for subject in subjects.iter().filter(|s| subject_of(s, folded)) {
            gone += delete.execute([subject])?;
        }
    }
    Ok(gone)
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

    /// Starts a sign-in of the member called `name` by `subject` at `now`: refused if the
    /// subject is locked, else counted as a wrong PIN (locking the subject when it makes
    /// `policy.failures`) before the PIN is checked, and the enabled member read. One write.
    pub fn claim(
        &self,
        subject: String,
        name: String,
        now: i64,
        policy: PinLock,
    ) -> Call<'s, Claim> {
        Call::write(self.0, move |tx| claim(tx, &subject, &name, now, policy))
    }

    /// Ends a sign-in whose PIN was right: forgets the subject's wrong PINs and lock and
    /// opens a session (ending sessions idle since before `idle_before`); its id. One write.
    pub fn signed_in(
        &self,
        subject: String,
        staff_id: i64,
        secret_hash: String,
        now: i64,
        idle_before: i64,
    ) -> Call<'s, i64> {
        Call::write(self.0, move |tx| {
            clear(tx, &subject)?;
            staff::open_session(tx, staff_id, &secret_hash, now, idle_before)
        })
    }

    /// Lifts the locks on the folded name `folded` from every device and forgets its wrong
    /// PINs (a manager's decision); how many rows went.
    pub fn lift(&self, folded: String) -> Call<'s, usize> {
        Call::write(self.0, move |tx| lift(tx, &folded))
    }

    /// Forgets the wrong PINs (and any lock) of `name` after a right one.
    pub fn clear(&self, name: String) -> Call<'s, ()> {
        Call::write(self.0, move |tx| clear(tx, &name))
    }
}

#[cfg(test)]
mod tests {
    use super::subject_of;

    #[test]
    fn a_subject_belongs_to_the_name_before_its_last_at_and_to_no_other() {
        assert!(subject_of("ann@127.0.0.1", "ann"));
        assert!(subject_of("ann@b@2001:db8::/64", "ann@b"));
        assert!(!subject_of("ann@b@2001:db8::/64", "ann"));
        assert!(!subject_of("anna@127.0.0.1", "ann"));
        assert!(!subject_of("ann", "ann"));
    }
}
