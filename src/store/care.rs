//! The care log of pets: entries added, never changed or deleted, and what falls due.
//!
//! Guarantee: `care_latest` holds, for each pet and kind, the latest entry of that kind. It
//! is written by the same transaction that adds the entry (one upsert), so what falls due is
//! read from one row per pet and kind, however long the log grows.
//!
//! What falls due is also remembered, per `within` and day, while none of the tables it is
//! read from (`pets`, `care_latest`, `store_profile`) changes (see `pages`): the tablets in
//! the animal room ask again and again, and between two changes get the same bytes.

use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use chrono::NaiveDate;
use chrono_tz::Tz;
use rusqlite::params;

use super::db::{Connection, DbResult, Row};
use super::pages::{Pages, Tables};
use super::{pets, profile, Call, Result, Store, Tx};
use crate::domain::care::{self, CareEntry, CareKind, DueCare, NewCare};
use crate::domain::query::{Page, Paged};
use crate::domain::{report, time};

const COLUMNS: &str =
    "id, pet_id, kind, note, product, weight_grams, due_on, at, key_name, staff_id";

fn from_row(row: &Row<'_>) -> DbResult<CareEntry> {
    let kind: String = row.get(2)?;
    Ok(CareEntry {
        id: row.get(0)?,
        pet_id: row.get(1)?,
        kind: CareKind::parse(&kind).unwrap_or(CareKind::Note),
        note: row.get(3)?,
        product: row.get(4)?,
        weight_grams: row.get(5)?,
        due_on: row.get(6)?,
        at: row.get(7)?,
        key_name: row.get(8)?,
        staff_id: row.get(9)?,
    })
}

/// Adds an entry to a pet's log (`not_found` without the pet), keeps `care_latest` and
/// announces `care.recorded`.
fn record(tx: &mut Tx<'_>, pet_id: i64, new: NewCare, key_name: Option<&str>) -> Result<CareEntry> {
    pets::require(tx, pet_id)?;
    let at = time::now();
    let staff_id = tx.member().map(|m| m.id);
    let id = tx
        .prepare_cached(
            "INSERT INTO care_entries (pet_id, kind, note, product, weight_grams, due_on, at,
                 key_name, staff_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?
        .insert(params![
            pet_id,
            new.kind.as_str(),
            new.note,
            new.product,
            new.weight_grams,
            new.due_on,
            at,
            key_name,
            staff_id
        ])?;
    tx.prepare_cached(
        "INSERT INTO care_latest (pet_id, kind, entry_id, due_on, at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (pet_id, kind) DO UPDATE
             SET entry_id = excluded.entry_id, due_on = excluded.due_on, at = excluded.at",
    )?
    .execute(params![pet_id, new.kind.as_str(), id, new.due_on, at])?;
    let entry = CareEntry {
        id,
        pet_id,
        kind: new.kind,
        note: new.note,
        product: new.product,
        weight_grams: new.weight_grams,
        due_on: new.due_on,
        at,
        key_name: key_name.map(str::to_owned),
        staff_id,
    };
    tx.emit("care.recorded", &entry)?;
    Ok(entry)
}

/// A pet's log, newest first, of one kind or all.
fn list(
    conn: &Connection,
    pet_id: i64,
    kind: Option<CareKind>,
    page: Page,
) -> Result<Paged<CareEntry>> {
    pets::require(conn, pet_id)?;
    let (items, total) = match kind {
        None => (
            conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM care_entries WHERE pet_id = ?1
                 ORDER BY id DESC LIMIT +?2 OFFSET +?3"
            ))?
            .query_map(params![pet_id, page.limit, page.offset], from_row)?
            .collect::<DbResult<Vec<_>>>()?,
            conn.prepare_cached("SELECT COUNT(*) FROM care_entries WHERE pet_id = ?1")?
                .query_row([pet_id], |row| row.get(0))?,
        ),
        Some(kind) => (
            conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM care_entries WHERE pet_id = ?1 AND kind = ?2
                 ORDER BY id DESC LIMIT +?3 OFFSET +?4"
            ))?
            .query_map(
                params![pet_id, kind.as_str(), page.limit, page.offset],
                from_row,
            )?
            .collect::<DbResult<Vec<_>>>()?,
            conn.prepare_cached(
                "SELECT COUNT(*) FROM care_entries WHERE pet_id = ?1 AND kind = ?2",
            )?
            .query_row(params![pet_id, kind.as_str()], |row| row.get(0))?,
        ),
    };
    Ok(Paged { items, total })
}

/// The tables what falls due is read from: a change to any of them may change it.
const DUE_TABLES: [&str; 3] = ["pets", "care_latest", "store_profile"];
/// Largest answer remembered, in lines: a larger one is read again each time rather than
/// push the remembered pages of pets out (`pages` holds 20,000 records in all).
const DUE_REMEMBERED_MAX: usize = 5_000;

/// What falls due within some days, as read on `today` in the store's time zone `tz`,
/// shared by the requests it answers, with its JSON made once by the first that needs it.
pub struct DueAnswer {
    pub items: Vec<DueCare>,
    pub rendered: OnceLock<Bytes>,
    today: NaiveDate,
    tz: Tz,
}

fn due_key(within: i64) -> String {
    format!("care due {within}")
}

/// What falls due by today + `within` days (the store's time zone), for pets not sold:
/// earliest `dueOn` first. Remembered while nothing it was read from changes.
fn due(conn: &Connection, pages: &Pages, within: i64) -> Result<Arc<DueAnswer>> {
    let tables = Tables::of(&DUE_TABLES);
    let before = pages.version(tables);
    let tz = profile::get(conn)?.tz();
    let today = report::today(tz);
    let answer = Arc::new(DueAnswer {
        items: due_on(conn, today, within)?,
        rendered: OnceLock::new(),
        today,
        tz,
    });
    if answer.items.len() <= DUE_REMEMBERED_MAX {
        if let Some(version) = before.filter(|v| pages.version(tables) == Some(*v)) {
            let lines = answer.items.len();
            pages.keep_answer(due_key(within), version, lines, answer.clone());
        }
    }
    Ok(answer)
}

fn due_on(conn: &Connection, today: NaiveDate, within: i64) -> Result<Vec<DueCare>> {
    let by = care::due_by(today, within).to_string();
    let rows = conn
        .prepare_cached(
            "SELECT l.pet_id, p.name, l.kind, l.due_on, l.at
             FROM care_latest l JOIN pets p ON p.id = l.pet_id
             WHERE l.due_on IS NOT NULL AND l.due_on <= ?1
               AND (p.status IS NULL OR p.status <> 'sold')
             ORDER BY l.due_on, l.pet_id, l.kind",
        )?
        .query_map([by], |row| {
            let kind: String = row.get(2)?;
            let due_on: String = row.get(3)?;
            Ok(DueCare {
                pet_id: row.get(0)?,
                name: row.get(1)?,
                kind: CareKind::parse(&kind).unwrap_or(CareKind::Note),
                overdue_days: care::overdue_days(today, &due_on),
                due_on,
                last_at: row.get(4)?,
            })
        })?
        .collect::<DbResult<Vec<_>>>()?;
    Ok(rows)
}

/// Whether the pet has any care entry.
pub(super) fn has_entries(conn: &Connection, pet_id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM care_entries WHERE pet_id = ?1)")?
        .query_row([pet_id], |row| row.get(0))?)
}

/// The care log: `store.care()`.
pub struct Care<'s>(pub(super) &'s Store);

impl<'s> Care<'s> {
    /// Adds an entry to a pet's log, made `by` the named key.
    pub fn record(&self, pet_id: i64, new: NewCare, by: Option<String>) -> Call<'s, CareEntry> {
        Call::write(self.0, move |tx| record(tx, pet_id, new, by.as_deref()))
    }

    /// A pet's log, newest first; only `kind` when given.
    pub fn list(
        &self,
        pet_id: i64,
        kind: Option<CareKind>,
        page: Page,
    ) -> Call<'s, Paged<CareEntry>> {
        Call::read(self.0, move |c| list(c, pet_id, kind, page))
    }

    /// What falls due within `within` days, earliest first.
    pub fn due(&self, within: i64) -> Call<'s, Arc<DueAnswer>> {
        let pages = self.0.pages();
        Call::read(self.0, move |c| due(c, &pages, within))
    }

    /// The same answer as [`Care::due`] would read, when it is remembered from an earlier
    /// read of the same day and nothing it was read from has changed since: answered
    /// without a reader.
    pub fn remembered(&self, within: i64) -> Option<Arc<DueAnswer>> {
        let pages = &self.0.inner.pages;
        let version = pages.version(Tables::of(&DUE_TABLES))?;
        let hit: Arc<DueAnswer> = pages.answer(&due_key(within), version)?;
        // Days change without a write: an answer of another day is read again.
        (report::today(hit.tz) == hit.today).then_some(hit)
    }
}
