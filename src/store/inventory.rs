//! Stock counts and the stock history. Every change of a count writes a history entry in
//! the same transaction, so the history always adds up to the count.

use std::sync::LazyLock;

use rusqlite::params;
use rusqlite::types::Value;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::pages::Pages;
use super::sql::{self, Filter, ListSql};
use super::{pets, Call, Result, Store, StoreError, Tx};
use crate::domain::animal::{self, INDIVIDUAL_STOCK_MAX};
use crate::domain::inventory::{
    self, Adjustment, InventoryItem, InventoryPatch, InventoryUpdate, Source, StockChange,
    STOCK_MAX,
};
use crate::domain::pet::PetStatus;
use crate::domain::query::{InventoryQuery, Page, Paged};
use crate::domain::{time, DomainError, Precondition};

const COLUMNS: &str = "i.pet_id, i.quantity, p.status, i.reorder_point";
const FROM: &str = "inventory i JOIN pets p ON p.id = i.pet_id";

/// The statement that reads one record by id, written out once (not on every read).
static BY_ID: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {COLUMNS} FROM {FROM} WHERE i.pet_id = ?1"));

fn from_row(row: &Row<'_>) -> DbResult<InventoryItem> {
    let status: Option<String> = row.get(2)?;
    Ok(InventoryItem {
        reorder_point: row.get(3)?,
        ..InventoryItem::new(
            row.get(0)?,
            row.get(1)?,
            status.as_deref().and_then(PetStatus::parse),
        )
    })
}

pub(super) fn get(conn: &Connection, pet_id: i64) -> Result<Option<InventoryItem>> {
    Ok(conn
        .prepare_cached(&BY_ID)?
        .query_row([pet_id], from_row)
        .optional()?)
}

/// The pet's stock, or `not_found` when there is no such pet.
pub(super) fn require(conn: &Connection, pet_id: i64) -> Result<InventoryItem> {
    get(conn, pet_id)?.ok_or(
        DomainError::NotFound {
            kind: "pet",
            id: pet_id,
        }
        .into(),
    )
}

fn list(conn: &Connection, pages: &Pages, query: &InventoryQuery) -> Result<Paged<InventoryItem>> {
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
    match query.low {
        Some(true) => filter.and(
            "i.reorder_point IS NOT NULL AND i.quantity <= i.reorder_point",
            [],
        ),
        Some(false) => filter.and(
            "(i.reorder_point IS NULL OR i.quantity > i.reorder_point)",
            [],
        ),
        None => {}
    }
    let list = ListSql {
        columns: COLUMNS,
        from: FROM,
        order: "i.pet_id",
        key: Some(("i.pet_id", false)),
        then_id: None,
        tables: &["inventory", "pets"],
    };
    sql::paged(conn, pages, &list, &filter, query.page, from_row)
}

fn change_from_row(row: &Row<'_>) -> DbResult<StockChange> {
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
        staff_id: row.get(9)?,
        purchase_order_id: row.get(10)?,
    })
}

/// A pet's stock history, newest first.
fn history(conn: &Connection, pet_id: i64, page: Page) -> Result<Paged<StockChange>> {
    pets::require(conn, pet_id)?;
    let items = conn
        .prepare_cached(
            "SELECT id, pet_id, delta, quantity_after, reason, source, order_id, key_name, at, staff_id,
                    purchase_order_id
             FROM stock_changes WHERE pet_id = ?1 ORDER BY id DESC LIMIT +?2 OFFSET +?3",
        )?
        .query_map(params![pet_id, page.limit, page.offset], change_from_row)?
        .collect::<DbResult<Vec<_>>>()?;
    let total = conn
        .prepare_cached("SELECT COUNT(*) FROM stock_changes WHERE pet_id = ?1")?
        .query_row([pet_id], |row| row.get(0))?;
    Ok(Paged { items, total })
}

/// Who made a change and why: written into the history entry.
pub(super) struct Cause<'a> {
    pub source: Source,
    pub reason: Option<&'a str>,
    pub order_id: Option<i64>,
    pub key_name: Option<&'a str>,
}

/// Moves a pet's stock by `delta` in one conditional statement, so that no other writer's
/// change between a read and this write can be lost: the statement adds to the count as it
/// is at that instant, and changes nothing when the result would leave 0..=[`STOCK_MAX`].
/// Records the history entry and announces the new count. `Ok(None)` when the count stayed
/// out of bounds (or the pet is gone); the caller says why.
pub(super) fn shift(
    tx: &mut Tx<'_>,
    pet_id: i64,
    delta: i64,
    cause: Cause<'_>,
) -> Result<Option<InventoryItem>> {
    let Some(after) = move_count(tx, pet_id, delta)? else {
        return Ok(None);
    };
    record(tx, pet_id, delta, after, cause)?;
    let item = require(tx, pet_id)?;
    announce_moved(tx, &item, delta)?;
    Ok(Some(item))
}

/// Announces an item whose count just moved by `delta`: `inventory.updated`, and
/// `inventory.low` when the move took it from above its reorder point to at or below it.
pub(super) fn announce_moved(tx: &mut Tx<'_>, item: &InventoryItem, delta: i64) -> Result<()> {
    tx.emit("inventory.updated", item)?;
    let before = InventoryItem {
        quantity: item.quantity - delta,
        ..item.clone()
    };
    if inventory::became_low(&before, item) {
        tx.emit("inventory.low", item)?;
    }
    Ok(())
}

/// The one statement that moves a count: `quantity + delta`, only while the result stays
/// in 0..=[`STOCK_MAX`]. The new count, or `None` when nothing moved.
///
/// The new count is read back by a second statement rather than with `RETURNING`: SQLite
/// gathers a `RETURNING` statement's rows in a temporary table with a page cache of its own,
/// made and dropped on every run (with the history CHECK's, migration 18, that churn was a
/// fifth of the writer's time at a million orders). The read sees this transaction's own
/// write, and no other write can come between (the writer holds the store's lock).
pub(super) fn move_count(tx: &Tx<'_>, pet_id: i64, delta: i64) -> Result<Option<i64>> {
    let moved = tx
        .prepare_cached(
            "UPDATE inventory SET quantity = quantity + ?2
             WHERE pet_id = ?1 AND quantity + ?2 BETWEEN 0 AND ?3",
        )?
        .execute(params![pet_id, delta, STOCK_MAX])?;
    if moved == 0 {
        return Ok(None);
    }
    let after = tx
        .prepare_cached("SELECT quantity FROM inventory WHERE pet_id = ?1")?
        .query_row([pet_id], |row| row.get(0))?;
    individual_fits(tx, pet_id, delta, after)?;
    Ok(Some(after))
}

/// The one-individual rule on every path that raises a count (adjustments, stock set,
/// stocktakes, imports, refunds, cancelled orders): an animal's stock is 0 or 1, else the
/// whole change is refused with `validation_failed`. Only a rise past 1 is looked at, so
/// sales and orders pay nothing for it.
fn individual_fits(conn: &Connection, pet_id: i64, delta: i64, after: i64) -> Result<()> {
    if delta > 0 && after > INDIVIDUAL_STOCK_MAX && pets::is_individual(conn, pet_id)? {
        animal::check_individual_stock("quantity", pet_id, after)?;
    }
    Ok(())
}

pub(super) fn record(
    tx: &Tx<'_>,
    pet_id: i64,
    delta: i64,
    after: i64,
    cause: Cause<'_>,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO stock_changes (pet_id, delta, quantity_after, reason, source, order_id, key_name, at, staff_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?
    .execute(params![
        pet_id,
        delta,
        after,
        cause.reason,
        cause.source.as_str(),
        cause.order_id,
        cause.key_name,
        time::now(),
        tx.member().map(|m| m.id)
    ])?;
    Ok(())
}

/// Announces an item whose status changed while its count did not.
pub(super) fn announce(tx: &mut Tx<'_>, pet_id: i64) -> Result<()> {
    let item = require(tx, pet_id)?;
    tx.emit("inventory.updated", &item)
}

/// Sets a pet's count. The count is written only if it is still the one the precondition
/// was checked against (compare and set), so a change made in between is never overwritten
/// unseen. Staff changes leave the status alone.
fn set(
    tx: &mut Tx<'_>,
    pet_id: i64,
    update: InventoryUpdate,
    key_name: Option<&str>,
    pre: &Precondition,
) -> Result<InventoryItem> {
    let item = require(tx, pet_id)?;
    pre.check(&item)?;
    let delta = update.quantity - item.quantity;
    if delta == 0 {
        return Ok(item);
    }
    individual_fits(tx, pet_id, delta, update.quantity)?;
    let written = tx
        .prepare_cached("UPDATE inventory SET quantity = ?3 WHERE pet_id = ?1 AND quantity = ?2")?
        .execute(params![pet_id, item.quantity, update.quantity])?;
    if written == 0 {
        // Another writer moved the count after it was read: the caller's view is stale.
        return Err(DomainError::PreconditionFailed.into());
    }
    let cause = Cause {
        source: Source::Set,
        reason: update.reason.as_deref(),
        order_id: None,
        key_name,
    };
    record(tx, pet_id, delta, update.quantity, cause)?;
    let updated = InventoryItem {
        quantity: update.quantity,
        ..item
    };
    announce_moved(tx, &updated, delta)?;
    Ok(updated)
}

/// Changes an item's settings (`PATCH /store/inventory/{petId}`): its reorder point.
fn patch(
    tx: &mut Tx<'_>,
    pet_id: i64,
    patch: InventoryPatch,
    pre: &Precondition,
) -> Result<InventoryItem> {
    let item = require(tx, pet_id)?;
    pre.check(&item)?;
    match patch.reorder_point {
        Some(reorder_point) => set_reorder_point(tx, &item, reorder_point),
        None => Ok(item),
    }
}

/// Sets an item's reorder point, announcing the change. Raising the point to or above the
/// stock makes the item low, which is announced as `inventory.low` like a sale would be.
pub(super) fn set_reorder_point(
    tx: &mut Tx<'_>,
    item: &InventoryItem,
    reorder_point: Option<i64>,
) -> Result<InventoryItem> {
    if item.reorder_point == reorder_point {
        return Ok(item.clone());
    }
    tx.prepare_cached("UPDATE inventory SET reorder_point = ?2 WHERE pet_id = ?1")?
        .execute(params![item.pet_id, reorder_point])?;
    let updated = InventoryItem {
        reorder_point,
        ..item.clone()
    };
    tx.emit("inventory.updated", &updated)?;
    if inventory::became_low(item, &updated) {
        tx.emit("inventory.low", &updated)?;
    }
    Ok(updated)
}

/// Changes a pet's count by a delta, atomically; never below 0 nor above [`STOCK_MAX`].
fn adjust(
    tx: &mut Tx<'_>,
    pet_id: i64,
    adjustment: Adjustment,
    key_name: Option<&str>,
) -> Result<InventoryItem> {
    let cause = Cause {
        source: Source::Adjustment,
        reason: adjustment.reason.as_deref(),
        order_id: None,
        key_name,
    };
    if let Some(item) = shift(tx, pet_id, adjustment.delta, cause)? {
        return Ok(item);
    }
    // Nothing moved: say why, from the count as it is now.
    let item = require(tx, pet_id)?;
    inventory::adjust(pet_id, item.quantity, adjustment.delta)?;
    Err(StoreError::Internal(format!(
        "the stock of pet {pet_id} did not move though {} {:+} is in bounds",
        item.quantity, adjustment.delta
    )))
}

/// Stock counts, adjustments and the stock history: `store.inventory()`.
pub struct Inventory<'s>(pub(super) &'s Store);

impl<'s> Inventory<'s> {
    /// One page of stock counts matching `query`.
    pub fn list(&self, query: InventoryQuery) -> Call<'s, Paged<InventoryItem>> {
        let pages = self.0.pages();
        Call::read(self.0, move |c| list(c, &pages, &query))
    }

    /// A pet's stock, or `not_found`.
    pub fn get(&self, pet_id: i64) -> Call<'s, InventoryItem> {
        Call::read(self.0, move |c| require(c, pet_id))
    }

    /// A pet's stock history, newest first.
    pub fn history(&self, pet_id: i64, page: Page) -> Call<'s, Paged<StockChange>> {
        Call::read(self.0, move |c| history(c, pet_id, page))
    }

    /// Sets a pet's count (a stocktake), made `by` the named key.
    pub fn set(
        &self,
        pet_id: i64,
        update: InventoryUpdate,
        by: Option<String>,
        pre: Precondition,
    ) -> Call<'s, InventoryItem> {
        Call::write(self.0, move |tx| {
            set(tx, pet_id, update, by.as_deref(), &pre)
        })
    }

    /// Changes an item's reorder point (`null` clears it).
    pub fn patch(
        &self,
        pet_id: i64,
        patch: InventoryPatch,
        pre: Precondition,
    ) -> Call<'s, InventoryItem> {
        Call::write(self.0, move |tx| self::patch(tx, pet_id, patch, &pre))
    }

    /// Moves a pet's count by a delta, made `by` the named key.
    pub fn adjust(
        &self,
        pet_id: i64,
        adjustment: Adjustment,
        by: Option<String>,
    ) -> Call<'s, InventoryItem> {
        Call::write(self.0, move |tx| {
            adjust(tx, pet_id, adjustment, by.as_deref())
        })
    }
}
