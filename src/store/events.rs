//! The change events kept in the database, so a subscriber can resume where it left off.
//!
//! Ids are in commit order by construction: an event's id is given by `INSERT` ([`insert`],
//! called by `Tx::emit`) inside the writer's transaction, which holds the store's one write
//! lock from its begin to its commit (SQLite's `BEGIN IMMEDIATE`, PostgreSQL's advisory lock;
//! in this program and in any other writing the same store). So an event with a higher id
//! never commits before one with a lower id, and a follower asking only for "after the last
//! id I saw" misses nothing. An engine without that lock must hand ids out at commit
//! instead; `store::tests` holds the follower test for it. On PostgreSQL the events of every
//! process reach this one's subscribers through `engine::postgres_follower`.

use rusqlite::params;

use super::db::{Connection, DbResult};
use super::{Call, Result, Store, Tx};
use crate::domain::event::{Event, EventData};

/// How long events are kept for resuming, in hours.
pub const KEEP_HOURS: i64 = 24;
/// Most events kept, whatever their age.
pub const KEEP_MAX: i64 = 100_000;

/// Writes one event with the request's changes (undone with them); its id.
pub(super) fn insert(
    conn: &Connection,
    kind: &str,
    at: &str,
    data: &EventData,
    key_name: Option<&str>,
    staff_id: Option<i64>,
) -> Result<i64> {
    Ok(conn
        .prepare_cached(
            "INSERT INTO events (type, at, data, key_name, staff_id) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .insert(params![kind, at, data.as_str(), key_name, staff_id])?)
}

/// Events after `last_id`, oldest first, at most `limit`.
pub(super) fn since(conn: &Connection, last_id: i64, limit: i64) -> Result<Vec<Event>> {
    let rows = conn
        .prepare_cached(
            "SELECT id, type, at, data, key_name, staff_id FROM events
             WHERE id > ?1 ORDER BY id LIMIT +?2",
        )?
        .query_map(params![last_id, limit], |row| {
            let data: String = row.get(3)?;
            Ok(Event {
                id: row.get(0)?,
                kind: row.get(1)?,
                at: row.get(2)?,
                data: EventData::from_stored(&data),
                key_name: row.get(4)?,
                staff_id: row.get(5)?,
            })
        })?
        .collect::<DbResult<Vec<_>>>()?;
    Ok(rows)
}

/// The newest event's id (0 when there is none).
pub(super) fn last_id(conn: &Connection) -> Result<i64> {
    Ok(
        conn.query_row("SELECT COALESCE(MAX(id), 0) FROM events", [], |row| {
            row.get(0)
        })?,
    )
}

/// The oldest and newest kept events' ids (0, 0 when none is kept).
fn bounds(conn: &Connection) -> Result<(i64, i64)> {
    Ok(conn.query_row(
        "SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), 0) FROM events",
        [],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?)
}

/// Drops events older than [`KEEP_HOURS`] and beyond the newest [`KEEP_MAX`].
pub(super) fn prune(tx: &Tx<'_>) -> Result<usize> {
    let cutoff =
        crate::domain::time::format(chrono::Utc::now() - chrono::Duration::hours(KEEP_HOURS));
    let by_age = tx.execute("DELETE FROM events WHERE at < ?1", [cutoff])?;
    let by_count = tx.execute(
        "DELETE FROM events WHERE id <= (SELECT MAX(id) FROM events) - ?1",
        [KEEP_MAX],
    )?;
    Ok(by_age + by_count)
}

/// The change events kept for resuming subscribers: `store.events()`.
pub struct Events<'s>(pub(super) &'s Store);

impl<'s> Events<'s> {
    /// Events after `last_id`, oldest first, at most `limit`.
    pub fn since(&self, last_id: i64, limit: i64) -> Call<'s, Vec<Event>> {
        Call::read(self.0, move |c| since(c, last_id, limit))
    }

    /// The oldest and newest kept events' ids (0, 0 when none is kept).
    pub fn bounds(&self) -> Call<'s, (i64, i64)> {
        Call::read(self.0, bounds)
    }

    /// The newest event's id (0 when there is none).
    pub fn last_id(&self) -> Call<'s, i64> {
        Call::read(self.0, last_id)
    }
}
