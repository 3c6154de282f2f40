//! Stock counts and the stock history. Every change of a count writes a history entry in
//! the same transaction, so the history always adds up to the count.

use rusqlite::types::Value;
use rusqlite::{params, Connection, OptionalExtension, Row};

use super::sql::{self, Filter};
use super::{pets, Result, Tx};
use crate::domain::inventory::{
    self, Adjustment, InventoryItem, InventoryUpdate, Source, StockChange,
};
use crate::domain::pet::PetStatus;
use crate::domain::query::{InventoryQuery, Page, Paged};
use crate::domain::{etag, time, DomainError};

const COLUMNS: &str = "i.pet_id, i.quantity, p.status";
const FROM: &str = "inventory i JOIN pets p ON p.id = i.pet_id";

fn from_row(row: &Row<'_>) -> rusqlite::Result<InventoryItem> {
    let status: Option<String> = row.get(2)?;
    Ok(InventoryItem::new(
        row.get(0)?,
        row.get(1)?,
        status.as_deref().and_then(PetStatus::parse),
    ))
}

pub fn get(conn: &Connection, pet_id: i64) -> Result<Option<InventoryItem>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM {FROM} WHERE i.pet_id = ?1"))?
        .query_row([pet_id], from_row)
        .optional()?)
}

/// The pet's stock, or `not_found` when there is no such pet.
pub fn require(conn: &Connection, pet_id: i64) -> Result<InventoryItem> {
    get(conn, pet_id)?.ok_or(
        DomainError::NotFound {
            kind: "pet",
            id: pet_id,
        }
        .into(),
    )
}

pub fn list(conn: &Connection, query: &InventoryQuery) -> Result<Paged<InventoryItem>> {
    let mut filter = Filter::default();
    if !query.statuses.is_empty() {
        let values: Vec<Value> = query
            .statuses
            .iter()
            .map(|s| Value::Text(s.as_str().into()))
            .collect();
        let marks = vec!["?"; values.len()].join(", ");
        let or_unset = if query.statuses.contains(&PetStatus::Available) {
            " OR p.status IS NULL"
        } else {
            ""
        };
        filter.and(format!("(p.status IN ({marks}){or_unset})"), values);
    }
    if let Some(below) = query.below {
        filter.and("i.quantity < ?", [Value::Integer(below)]);
    }
    sql::paged(
        conn,
        (COLUMNS, FROM, "i.pet_id"),
        &filter,
        query.page,
        from_row,
    )
}

fn change_from_row(row: &Row<'_>) -> rusqlite::Result<StockChange> {
    let source: String = row.get(5)?;
    Ok(StockChange {
        id: row.get(0)?,
        pet_id: row.get(1)?,
        delta: row.get(2)?,
        quantity_after: row.get(3)?,
        reason: row.get(4)?,
        source: Source::parse(&source).unwrap_or(Source::Adjustment),
        order_id: row.get(6)?,
        key_name: row.get(7)?,
        at: row.get(8)?,
    })
}

/// A pet's stock history, newest first.
pub fn history(conn: &Connection, pet_id: i64, page: Page) -> Result<Paged<StockChange>> {
    pets::require(conn, pet_id)?;
    let items = conn
        .prepare_cached(
            "SELECT id, pet_id, delta, quantity_after, reason, source, order_id, key_name, at
             FROM stock_changes WHERE pet_id = ?1 ORDER BY id DESC LIMIT ?2 OFFSET ?3",
        )?
        .query_map(params![pet_id, page.limit, page.offset], change_from_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let total = conn
        .prepare_cached("SELECT COUNT(*) FROM stock_changes WHERE pet_id = ?1")?
        .query_row([pet_id], |row| row.get(0))?;
    Ok(Paged { items, total })
}

/// Who made a change and why: written into the history entry.
pub struct Cause<'a> {
    pub source: Source,
    pub reason: Option<&'a str>,
    pub order_id: Option<i64>,
    pub key_name: Option<&'a str>,
}

/// Moves a pet's stock from `before` by `delta`, records the history entry and announces
/// the new count. The caller has checked the bounds.
pub fn apply(
    tx: &mut Tx<'_>,
    item: &InventoryItem,
    delta: i64,
    cause: Cause<'_>,
) -> Result<InventoryItem> {
    let after = item.quantity + delta;
    tx.prepare_cached("UPDATE inventory SET quantity = ?2 WHERE pet_id = ?1")?
        .execute(params![item.pet_id, after])?;
    tx.prepare_cached(
        "INSERT INTO stock_changes (pet_id, delta, quantity_after, reason, source, order_id, key_name, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        item.pet_id,
        delta,
        after,
        cause.reason,
        cause.source.as_str(),
        cause.order_id,
        cause.key_name,
        time::now()
    ])?;
    let updated = InventoryItem {
        quantity: after,
        ..item.clone()
    };
    tx.emit("inventory.updated", &updated)?;
    Ok(updated)
}

/// Announces an item whose status changed while its count did not.
pub fn announce(tx: &mut Tx<'_>, pet_id: i64) -> Result<()> {
    let item = require(tx, pet_id)?;
    tx.emit("inventory.updated", &item)
}

/// Sets a pet's count (`PUT /store/inventory/{petId}`). Staff changes leave the status alone.
pub fn set(
    tx: &mut Tx<'_>,
    pet_id: i64,
    update: InventoryUpdate,
    key_name: Option<&str>,
    if_match: Option<&str>,
) -> Result<InventoryItem> {
    let item = require(tx, pet_id)?;
    etag::check(if_match, &item)?;
    let delta = update.quantity - item.quantity;
    if delta == 0 {
        return Ok(item);
    }
    apply(
        tx,
        &item,
        delta,
        Cause {
            source: Source::Set,
            reason: update.reason.as_deref(),
            order_id: None,
            key_name,
        },
    )
}

/// Changes a pet's count by a delta, atomically; never below 0.
pub fn adjust(
    tx: &mut Tx<'_>,
    pet_id: i64,
    adjustment: Adjustment,
    key_name: Option<&str>,
) -> Result<InventoryItem> {
    let item = require(tx, pet_id)?;
    inventory::adjust(pet_id, item.quantity, adjustment.delta)?;
    apply(
        tx,
        &item,
        adjustment.delta,
        Cause {
            source: Source::Adjustment,
            reason: adjustment.reason.as_deref(),
            order_id: None,
            key_name,
        },
    )
}
