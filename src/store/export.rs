//! Reads for the CSV exports: pets with their category's name and their stock, and the stock
//! history in a range of instants. Both are read a chunk at a time, by id, up to the last id
//! there was when the export began, so an export of a year's history never holds more than
//! one chunk in memory.

use rusqlite::params;

use super::db::{Connection, DbResult};
use super::{Call, Result, Store};
use crate::domain::pet::PetStatus;

/// A pet as the pets export writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PetLine {
    pub id: i64,
    pub sku: Option<String>,
    pub barcode: Option<String>,
    pub name: String,
    pub category: String,
    pub status: Option<PetStatus>,
    pub price: Option<i64>,
    pub quantity: Option<i64>,
    pub reorder_point: Option<i64>,
    /// The supplier's name.
    pub supplier: Option<String>,
    pub cost: Option<i64>,
    pub reorder_quantity: Option<i64>,
    pub tax_rate: Option<i64>,
}

/// A stock history entry as the stock history export writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeLine {
    pub id: i64,
    pub pet_id: i64,
    pub delta: i64,
    pub quantity_after: i64,
    pub reason: Option<String>,
    pub source: String,
    pub order_id: Option<i64>,
    pub key_name: Option<String>,
    pub at: String,
}

/// Which stock history entries an export reads: `start <= at < end` (either end open).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeRange {
    pub start: Option<String>,
    pub end: Option<String>,
}

/// The largest id of `table` now (0 for none): where an export stops.
fn last_id(conn: &Connection, table: &'static str) -> Result<i64> {
    let sql = match table {
        "pets" => "SELECT COALESCE(MAX(id), 0) FROM pets",
        _ => "SELECT COALESCE(MAX(id), 0) FROM stock_changes",
    };
    Ok(conn.query_row(sql, [], |row| row.get(0))?)
}

/// Pets with `after < id <= through`, by id, at most `limit`.
fn pets(conn: &Connection, after: i64, through: i64, limit: i64) -> Result<Vec<PetLine>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.id, p.sku, p.barcode, p.name, c.name, p.status, p.price, i.quantity, i.reorder_point,
                s.name, p.cost, p.reorder_quantity, p.tax_rate
         FROM pets p JOIN categories c ON c.id = p.category_id
         LEFT JOIN inventory i ON i.pet_id = p.id
         LEFT JOIN suppliers s ON s.id = p.supplier_id
         WHERE p.id > ?1 AND p.id <= ?2 ORDER BY p.id LIMIT ?3",
    )?;
    let rows = stmt.query_map([after, through, limit], |row| {
        let status: Option<String> = row.get(5)?;
        Ok(PetLine {
            id: row.get(0)?,
            sku: row.get(1)?,
            barcode: row.get(2)?,
            name: row.get(3)?,
            category: row.get(4)?,
            status: status.as_deref().and_then(PetStatus::parse),
            price: row.get(6)?,
            quantity: row.get(7)?,
            reorder_point: row.get(8)?,
            supplier: row.get(9)?,
            cost: row.get(10)?,
            reorder_quantity: row.get(11)?,
            tax_rate: row.get(12)?,
        })
    })?;
    Ok(rows.collect::<DbResult<Vec<_>>>()?)
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

/// Stock history entries in `range` with `after < id <= through`, oldest first, at most
/// `limit`.
fn stock_changes(
    conn: &Connection,
    range: &ChangeRange,
    after: i64,
    through: i64,
    limit: i64,
) -> Result<Vec<ChangeLine>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, pet_id, delta, quantity_after, reason, source, order_id, key_name, at
         FROM stock_changes WHERE (at >= ?1 OR ?1 IS NULL) AND (at < ?2 OR ?2 IS NULL)
         AND id > ?3 AND id <= ?4 ORDER BY id LIMIT ?5",
    )?;
    let rows = stmt.query_map(
        params![range.start, range.end, after, through, limit],
        |row| {
            Ok(ChangeLine {
                id: row.get(0)?,
                pet_id: row.get(1)?,
                delta: row.get(2)?,
                quantity_after: row.get(3)?,
                reason: row.get(4)?,
                source: row.get(5)?,
                order_id: row.get(6)?,
                key_name: row.get(7)?,
                at: row.get(8)?,
            })
        },
    )?;
    Ok(rows.collect::<DbResult<Vec<_>>>()?)
}

/// The CSV exports' rows: `store.export()`.
pub struct Export<'s>(pub(super) &'s Store);

impl<'s> Export<'s> {
    /// The largest pet id now: an export of pets reads up to it.
    pub fn last_pet_id(&self) -> Call<'s, i64> {
        Call::read(self.0, |c| last_id(c, "pets"))
    }

    /// The largest stock history id now: an export of the history reads up to it.
    pub fn last_stock_change_id(&self) -> Call<'s, i64> {
        Call::read(self.0, |c| last_id(c, "stock_changes"))
    }

    /// Pets with `after < id <= through`, by id, at most `limit` of them.
    pub fn pets(&self, after: i64, through: i64, limit: i64) -> Call<'s, Vec<PetLine>> {
        Call::read(self.0, move |c| pets(c, after, through, limit))
    }

    /// Stock history entries in `range` with `after < id <= through`, oldest first, at most
    /// `limit` of them.
    pub fn stock_changes(
        &self,
        range: ChangeRange,
        after: i64,
        through: i64,
        limit: i64,
    ) -> Call<'s, Vec<ChangeLine>> {
        Call::read(self.0, move |c| {
            stock_changes(c, &range, after, through, limit)
        })
    }
}
