//! Each caller's request count for the current UTC day, saved so a restart resets no one.

use rusqlite::{params, Connection};

use super::{Result, Tx};

/// Saves day counts: `(subject, day start in Unix seconds, count)`.
pub fn save(tx: &Tx<'_>, counts: &[(String, i64, u64)]) -> Result<()> {
    let mut upsert = tx.prepare_cached(
        "INSERT INTO rate_usage (subject, day_start, count) VALUES (?1, ?2, ?3)
         ON CONFLICT (subject) DO UPDATE SET day_start = excluded.day_start, count = excluded.count",
    )?;
    for (subject, day_start, count) in counts {
        upsert.execute(params![subject, day_start, *count as i64])?;
    }
    Ok(())
}

/// The saved day counts of `day_start` (older days are of no use).
pub fn load(conn: &Connection, day_start: i64) -> Result<Vec<(String, i64, u64)>> {
    let rows = conn
        .prepare("SELECT subject, day_start, count FROM rate_usage WHERE day_start = ?1")?
        .query_map([day_start], |row| {
            let count: i64 = row.get(2)?;
            Ok((row.get(0)?, row.get(1)?, count.max(0) as u64))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}
