//! Reads for the CSV exports: every pet with its category's name and its stock, and the
//! stock history in a range of instants.

use super::db::Connection;
use super::{Call, Result, Store};
use crate::domain::pet::PetStatus;

/// A pet as the export writes it, cells in the order of [`crate::domain::import::COLUMNS`].
fn pets(conn: &Connection) -> Result<Vec<[String; 9]>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.sku, p.barcode, p.name, c.name, p.status, p.price, i.quantity, i.reorder_point
         FROM pets p JOIN categories c ON c.id = p.category_id
         LEFT JOIN inventory i ON i.pet_id = p.id ORDER BY p.id",
    )?;
    let rows = stmt.query_map([], |row| {
        let status: Option<String> = row.get(5)?;
        Ok([
            row.get::<_, i64>(0)?.to_string(),
            row.get::<_, Option<String>>(1)?.unwrap_or_default(),
            row.get::<_, Option<String>>(2)?.unwrap_or_default(),
            row.get(3)?,
            row.get(4)?,
            status
                .as_deref()
                .and_then(PetStatus::parse)
                .map(|s| s.as_str().to_owned())
                .unwrap_or_default(),
            cell(row.get::<_, Option<i64>>(6)?),
            cell(row.get::<_, Option<i64>>(7)?),
            cell(row.get::<_, Option<i64>>(8)?),
        ])
    })?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// The columns of the stock history export.
pub const STOCK_CHANGE_COLUMNS: [&str; 9] = [
    "id",
    "petId",
    "delta",
    "quantityAfter",
    "reason",
    "source",
    "orderId",
    "keyName",
    "at",
];

/// Stock history entries with `start <= at < end` (either end open), oldest first.
fn stock_changes(
    conn: &Connection,
    start: Option<String>,
    end: Option<String>,
) -> Result<Vec<[String; 9]>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, pet_id, delta, quantity_after, reason, source, order_id, key_name, at
         FROM stock_changes WHERE (at >= ?1 OR ?1 IS NULL) AND (at < ?2 OR ?2 IS NULL)
         ORDER BY id",
    )?;
    let rows = stmt.query_map([start, end], |row| {
        Ok([
            row.get::<_, i64>(0)?.to_string(),
            row.get::<_, i64>(1)?.to_string(),
            row.get::<_, i64>(2)?.to_string(),
            row.get::<_, i64>(3)?.to_string(),
            row.get::<_, Option<String>>(4)?.unwrap_or_default(),
            row.get(5)?,
            cell(row.get::<_, Option<i64>>(6)?),
            row.get::<_, Option<String>>(7)?.unwrap_or_default(),
            row.get(8)?,
        ])
    })?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

fn cell(value: Option<i64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// The CSV exports' rows: `store.export()`.
pub struct Export<'s>(pub(super) &'s Store);

impl<'s> Export<'s> {
    /// Every pet, by id, as the cells of the pets export.
    pub fn pets(&self) -> Call<'s, Vec<[String; 9]>> {
        Call::read(self.0, pets)
    }

    /// The stock history from `start` to before `end` (UTC instants, either open), oldest
    /// first, as the cells of [`STOCK_CHANGE_COLUMNS`].
    pub fn stock_changes(
        &self,
        start: Option<String>,
        end: Option<String>,
    ) -> Call<'s, Vec<[String; 9]>> {
        Call::read(self.0, move |c| stock_changes(c, start, end))
    }
}
