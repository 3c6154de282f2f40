//! Each caller's request count for the current UTC day, saved so a restart resets no one.
//!
//! Counts are saved as additions: each program adds the requests it served since its last
//! save, so two programs serving one store (or a save racing a restart) never overwrite each
//! other's counts. A count of an older day than the one saved is dropped; a newer day
//! starts the count afresh.

use rusqlite::params;

use super::db::{Connection, DbResult};
use super::{Call, Result, Store, Tx};

/// Requests served by one subject since the last save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageDelta {
    /// The subject as saved (`key:7`, `addr:192.0.2.1`).
    pub subject: String,
    /// The UTC day the requests were served on, in Unix seconds.
    pub day_start: i64,
    /// How many requests.
    pub served: u64,
}

fn add(tx: &Tx<'_>, deltas: &[UsageDelta]) -> Result<()> {
    let mut upsert = tx.prepare_cached(
        "INSERT INTO rate_usage (subject, day_start, count) VALUES (?1, ?2, ?3)
         ON CONFLICT (subject) DO UPDATE SET
             count = CASE
                 WHEN rate_usage.day_start = excluded.day_start THEN rate_usage.count + excluded.count
                 WHEN rate_usage.day_start < excluded.day_start THEN excluded.count
                 ELSE rate_usage.count
             END,
             day_start = CASE WHEN rate_usage.day_start > excluded.day_start
                 THEN rate_usage.day_start ELSE excluded.day_start END",
    )?;
    for delta in deltas {
        let served = i64::try_from(delta.served).unwrap_or(i64::MAX);
        upsert.execute(params![delta.subject, delta.day_start, served])?;
    }
    Ok(())
}

fn load(conn: &Connection, day_start: i64) -> Result<Vec<(String, i64, u64)>> {
    let rows = conn
        .prepare_cached("SELECT subject, day_start, count FROM rate_usage WHERE day_start = ?1")?
        .query_map([day_start], |row| {
            let count: i64 = row.get(2)?;
            Ok((row.get(0)?, row.get(1)?, count.max(0) as u64))
        })?
        .collect::<DbResult<Vec<_>>>()?;
    Ok(rows)
}

/// Saved request counts: `store.usage()`.
pub struct Usage<'s>(pub(super) &'s Store);

impl<'s> Usage<'s> {
    /// Adds requests served since the last save to the saved day counts.
    pub fn add(&self, deltas: Vec<UsageDelta>) -> Call<'s, ()> {
        Call::write(self.0, move |tx| add(tx, &deltas))
    }

    /// Adds requests and records when keys were last used, in one write.
    pub fn save(&self, deltas: Vec<UsageDelta>, uses: Vec<(i64, String)>) -> Call<'s, ()> {
        Call::write(self.0, move |tx| {
            add(tx, &deltas)?;
            super::keys::touch_uses(tx, &uses)
        })
    }

    /// The saved counts of the day starting at `day_start`: `(subject, day, count)`.
    pub fn load(&self, day_start: i64) -> Call<'s, Vec<(String, i64, u64)>> {
        Call::read(self.0, move |c| load(c, day_start))
    }
}
