//! Stocktakes and their counted lines (the rules are in [`crate::domain::stocktake`]).
//! Applying runs in one transaction: every counted pet's stock changes, or none does.

use std::sync::LazyLock;

use rusqlite::params;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::inventory::{self, Cause};
use super::{pets, Call, Result, Store, StoreError, Tx};
use crate::domain::animal::{self, INDIVIDUAL_STOCK_MAX};
use crate::domain::inventory::Source;
use crate::domain::query::{Page, Paged};
use crate::domain::stocktake::{self, Count, Line, NewStocktake, Stocktake, StocktakeStatus};
use crate::domain::{time, DomainError};

const COLUMNS: &str = "id, status, note, created_at, applied_at";

/// The statement that reads one record by id, written out once (not on every read).
static BY_ID: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {COLUMNS} FROM stocktakes WHERE id = ?1"));

fn from_row(row: &Row<'_>) -> DbResult<Stocktake> {
    let status: String = row.get(1)?;
    Ok(Stocktake {
        id: row.get(0)?,
        status: StocktakeStatus::parse(&status),
        note: row.get(2)?,
        created_at: row.get(3)?,
        applied_at: row.get(4)?,
        lines: Vec::new(),
    })
}

fn lines(conn: &Connection, id: i64) -> Result<Vec<Line>> {
    Ok(conn
        .prepare_cached(
            "SELECT pet_id, counted, counted_at, expected FROM stocktake_lines
             WHERE stocktake_id = ?1 ORDER BY counted_at, pet_id",
        )?
        .query_map([id], |row| {
            Ok(Line::new(
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
            ))
        })?
        .collect::<DbResult<Vec<_>>>()?)
}

/// The stocktake with its lines, or `not_found`.
fn require(conn: &Connection, id: i64) -> Result<Stocktake> {
    let stocktake = conn
        .prepare_cached(&BY_ID)?
        .query_row([id], from_row)
        .optional()?
        .ok_or(DomainError::NotFound {
            kind: "stocktake",
            id,
        })?;
    Ok(Stocktake {
        lines: lines(conn, id)?,
        ..stocktake
    })
}

/// Stocktakes with their lines, newest first.
fn list(conn: &Connection, page: Page) -> Result<Paged<Stocktake>> {
    let found = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM stocktakes ORDER BY id DESC LIMIT +?1 OFFSET +?2"
        ))?
        .query_map(params![page.limit, page.offset], from_row)?
        .collect::<DbResult<Vec<_>>>()?;
    let mut items = Vec::with_capacity(found.len());
    for stocktake in found {
        let lines = lines(conn, stocktake.id)?;
        items.push(Stocktake { lines, ..stocktake });
    }
    let total = conn
        .prepare_cached("SELECT COUNT(*) FROM stocktakes")?
        .query_row([], |row| row.get(0))?;
    Ok(Paged { items, total })
}

/// Opens a stocktake.
fn create(tx: &mut Tx<'_>, new: NewStocktake) -> Result<Stocktake> {
    let created_at = time::now();
    let id = tx
        .prepare_cached(
            "INSERT INTO stocktakes (status, note, created_at) VALUES ('open', ?1, ?2)",
        )?
        .insert(params![new.note, created_at])?;
    let stocktake = Stocktake {
        id,
        status: StocktakeStatus::Open,
        note: new.note,
        created_at,
        applied_at: None,
        lines: Vec::new(),
    };
    tx.emit("stocktake.created", &stocktake)?;
    Ok(stocktake)
}

/// Records (or replaces) the count of one pet, with the stock the store has for it now. An
/// individual animal counts 0 or 1: more is refused as it is counted, not when applied.
fn count(tx: &mut Tx<'_>, id: i64, pet_id: i64, counted: Count) -> Result<Line> {
    require(tx, id)?.ensure_open()?;
    let item = inventory::require(tx, pet_id)?;
    if counted.0 > INDIVIDUAL_STOCK_MAX && pets::is_individual(tx, pet_id)? {
        animal::check_individual_stock("counted", pet_id, counted.0)?;
    }
    let line = Line::new(pet_id, counted.0, time::now(), item.quantity);
    tx.prepare_cached(
        "INSERT INTO stocktake_lines (stocktake_id, pet_id, counted, counted_at, expected)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (stocktake_id, pet_id)
         DO UPDATE SET counted = ?3, counted_at = ?4, expected = ?5",
    )?
    .execute(params![
        id,
        pet_id,
        line.counted,
        line.counted_at,
        line.expected
    ])?;
    Ok(line)
}

/// Applies a stocktake: each counted pet's stock becomes its count plus the net change since
/// it was counted, with a `count` history entry where the stock changes.
fn apply(tx: &mut Tx<'_>, id: i64, key_name: Option<&str>) -> Result<Stocktake> {
    let stocktake = require(tx, id)?;
    stocktake.ensure_open()?;
    let reason = format!("stocktake {id}");
    for line in &stocktake.lines {
        // A pet deleted since it was counted has no stock left to set.
        let Some(item) = inventory::get(tx, line.pet_id)? else {
            continue;
        };
        let delta = stocktake::applied_stock(line, item.quantity) - item.quantity;
        if delta != 0 {
            let cause = Cause {
                source: Source::Count,
                reason: Some(&reason),
                order_id: None,
                key_name,
            };
            if inventory::shift(tx, line.pet_id, delta, cause)?.is_none() {
                return Err(StoreError::Internal(format!(
                    "the count of pet {} did not move though it is in bounds",
                    line.pet_id
                )));
            }
        }
    }
    let applied_at = time::now();
    tx.prepare_cached("UPDATE stocktakes SET status = 'applied', applied_at = ?2 WHERE id = ?1")?
        .execute(params![id, applied_at])?;
    let applied = Stocktake {
        status: StocktakeStatus::Applied,
        applied_at: Some(applied_at),
        ..stocktake
    };
    tx.emit("stocktake.applied", &applied)?;
    Ok(applied)
}

/// Discards an open stocktake and its counts.
fn delete(tx: &mut Tx<'_>, id: i64) -> Result<()> {
    require(tx, id)?.ensure_open()?;
    tx.prepare_cached("DELETE FROM stocktake_lines WHERE stocktake_id = ?1")?
        .execute([id])?;
    tx.prepare_cached("DELETE FROM stocktakes WHERE id = ?1")?
        .execute([id])?;
    tx.emit("stocktake.deleted", &serde_json::json!({ "id": id }))
}

/// Stocktakes: `store.stocktakes()`.
pub struct Stocktakes<'s>(pub(super) &'s Store);

impl<'s> Stocktakes<'s> {
    /// Stocktakes with their lines, newest first.
    pub fn list(&self, page: Page) -> Call<'s, Paged<Stocktake>> {
        Call::read(self.0, move |c| list(c, page))
    }

    /// The stocktake with its lines, or `not_found`.
    pub fn get(&self, id: i64) -> Call<'s, Stocktake> {
        Call::read(self.0, move |c| require(c, id))
    }

    /// Opens a stocktake.
    pub fn create(&self, new: NewStocktake) -> Call<'s, Stocktake> {
        Call::write(self.0, move |tx| create(tx, new))
    }

    /// Records (or replaces) the count of one pet.
    pub fn count(&self, id: i64, pet_id: i64, counted: Count) -> Call<'s, Line> {
        Call::write(self.0, move |tx| count(tx, id, pet_id, counted))
    }

    /// Applies the counts, made `by` the named key; the stocktake is then closed.
    pub fn apply(&self, id: i64, by: Option<String>) -> Call<'s, Stocktake> {
        Call::write(self.0, move |tx| apply(tx, id, by.as_deref())).changing_many_pages()
    }

    /// Discards an open stocktake.
    pub fn delete(&self, id: i64) -> Call<'s, ()> {
        Call::write(self.0, move |tx| delete(tx, id))
    }
}
