//! Temporary bans as the processes serving one store share them: each process writes the
//! bans it starts, reads everyone's back every second, and a lifted ban's row is deleted.

use rusqlite::params;

use super::db::{Connection, DbResult};
use super::{Call, Result, Store, Tx};

fn start(tx: &Tx<'_>, bans: &[(String, i64)], now: i64) -> Result<()> {
    let mut upsert = tx.prepare_cached(
        "INSERT INTO bans (subject, until) VALUES (?1, ?2)
         ON CONFLICT (subject) DO UPDATE SET
             until = CASE WHEN bans.until > excluded.until THEN bans.until ELSE excluded.until END",
    )?;
    for (subject, until) in bans {
        upsert.execute(params![subject, until])?;
    }
    // Ended bans are forgotten as new ones come.
    tx.execute("DELETE FROM bans WHERE until <= ?1", [now])?;
    Ok(())
}

fn active(conn: &Connection, now: i64) -> Result<Vec<(String, i64)>> {
    let rows = conn
        .prepare_cached("SELECT subject, until FROM bans WHERE until > ?1")?
        .query_map([now], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<DbResult<Vec<_>>>()?;
    Ok(rows)
}

/// Shared bans: `store.bans()`. Subjects are saved as the usage counts save them
/// (`key:7`, `addr:192.0.2.1`).
pub struct Bans<'s>(pub(super) &'s Store);

impl<'s> Bans<'s> {
    /// Records bans just started (`(subject, until)` in Unix seconds); a longer one kept.
    pub fn start(&self, bans: Vec<(String, i64)>, now: i64) -> Call<'s, ()> {
        Call::write(self.0, move |tx| start(tx, &bans, now))
    }

    /// Ends the ban on `subject` for every process.
    pub fn lift(&self, subject: String) -> Call<'s, ()> {
        Call::write(self.0, move |tx| {
            tx.execute("DELETE FROM bans WHERE subject = ?1", [&subject])?;
            Ok(())
        })
    }

    /// The bans in force at `now`.
    pub fn active(&self, now: i64) -> Call<'s, Vec<(String, i64)>> {
        Call::read(self.0, move |c| active(c, now))
    }
}
