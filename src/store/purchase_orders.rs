//! Purchase orders: their lines, numbers, lifecycle and receipts (the rules are in
//! [`crate::domain::purchase_order`]).
//!
//! Guarantees:
//! - `number` counts the store's purchase orders from 1 without gaps: it is taken from the one
//!   row of `purchase_order_numbers` by the order's own transaction, as sales take theirs;
//! - a receipt never takes a line past what was ordered, even with several processes
//!   receiving the same order on one PostgreSQL database: the receipt first locks the order's
//!   row (an `UPDATE` of it, a no-op on SQLite, whose one writer already runs writes one at a
//!   time), so receipts of one order take turns and each reads what the one before left; each
//!   line then moves with one conditional `UPDATE … WHERE received + n <= ordered`, and the
//!   table's `CHECK (received <= ordered)` is the last word;
//! - a receipt is all or nothing: its stock moves, history entries (source `received`,
//!   naming the order) and the order's new status commit together.

use rusqlite::params;
use rusqlite::types::Value;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::inventory;
use super::pages::Pages;
use super::sql::{self, Filter, ListSql};
use super::{pets, suppliers, Call, Result, Store, StoreError, Tx};
use crate::domain::purchase_order::PurchaseOrderQuery;
use crate::domain::purchase_order::{self, Line, NewPurchaseOrder, PurchaseOrder, Receipt, Status};
use crate::domain::query::Paged;
use crate::domain::{time, DomainError, Precondition};

const COLUMNS: &str = "id, number, supplier_id, status, note, created_at, sent_at, closed_at";

fn head_from_row(row: &Row<'_>) -> DbResult<PurchaseOrder> {
    let status: String = row.get(3)?;
    Ok(PurchaseOrder {
        id: row.get(0)?,
        number: row.get(1)?,
        supplier_id: row.get(2)?,
        status: Status::parse(&status).unwrap_or(Status::Draft),
        lines: Vec::new(),
        total: 0,
        note: row.get(4)?,
        created_at: row.get(5)?,
        sent_at: row.get(6)?,
        closed_at: row.get(7)?,
    })
}

/// Reads the order's lines into it, and its total.
fn fill(conn: &Connection, order: &mut PurchaseOrder) -> Result<()> {
    order.lines = conn
        .prepare_cached(
            "SELECT pet_id, ordered, received, cost FROM purchase_order_lines
             WHERE purchase_order_id = ?1 ORDER BY line",
        )?
        .query_map([order.id], |row| {
            Ok(Line {
                pet_id: row.get(0)?,
                ordered: row.get(1)?,
                received: row.get(2)?,
                cost: row.get(3)?,
            })
        })?
        .collect::<DbResult<_>>()?;
    order.total = purchase_order::total(&order.lines);
    Ok(())
}

fn get(conn: &Connection, id: i64) -> Result<Option<PurchaseOrder>> {
    let head = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM purchase_orders WHERE id = ?1"
        ))?
        .query_row([id], head_from_row)
        .optional()?;
    let Some(mut order) = head else {
        return Ok(None);
    };
    fill(conn, &mut order)?;
    Ok(Some(order))
}

/// The purchase order, or `not_found`.
fn require(conn: &Connection, id: i64) -> Result<PurchaseOrder> {
    get(conn, id)?.ok_or(
        DomainError::NotFound {
            kind: "purchase order",
            id,
        }
        .into(),
    )
}

fn list(
    conn: &Connection,
    pages: &Pages,
    query: &PurchaseOrderQuery,
) -> Result<Paged<PurchaseOrder>> {
    let mut filter = Filter::default();
    if let Some(status) = query.status {
        filter.and("status = ?", [Value::Text(status.as_str().into())]);
    }
    if let Some(supplier_id) = query.supplier_id {
        filter.and("supplier_id = ?", [Value::Integer(supplier_id)]);
    }
    let list = ListSql {
        columns: COLUMNS,
        from: "purchase_orders",
        order: "id DESC",
        key: Some(("id", true)),
        then_id: None,
        tables: &["purchase_orders", "purchase_order_lines"],
    };
    let mut page = sql::paged(conn, pages, &list, &filter, query.page, head_from_row)?;
    for order in &mut page.items {
        fill(conn, order)?;
    }
    Ok(page)
}

/// Takes the next purchase order number in this transaction.
fn next_number(tx: &Tx<'_>) -> Result<i64> {
    tx.prepare_cached("UPDATE purchase_order_numbers SET last = last + 1 WHERE id = 1")?
        .execute([])?;
    Ok(tx
        .prepare_cached("SELECT last FROM purchase_order_numbers WHERE id = 1")?
        .query_row([], |row| row.get(0))?)
}

/// Writes the lines of order `id`: each pet must exist; a line without a cost takes the
/// pet's (0 when the pet has none).
fn write_lines(tx: &Tx<'_>, id: i64, new: &NewPurchaseOrder) -> Result<()> {
    tx.prepare_cached("DELETE FROM purchase_order_lines WHERE purchase_order_id = ?1")?
        .execute([id])?;
    for (i, line) in new.lines.iter().enumerate() {
        let pet = pets::get(tx, line.pet_id)?
            .ok_or_else(|| DomainError::UnknownPet(line.pet_id).at_line(i))?;
        let cost = line.cost.or(pet.cost).unwrap_or(0);
        tx.prepare_cached(
            "INSERT INTO purchase_order_lines (purchase_order_id, line, pet_id, ordered, received, cost)
             VALUES (?1, ?2, ?3, ?4, 0, ?5)",
        )?
        .execute(params![id, i as i64, line.pet_id, line.quantity, cost])?;
    }
    Ok(())
}

fn create(tx: &mut Tx<'_>, new: NewPurchaseOrder) -> Result<PurchaseOrder> {
    suppliers::require_for_pet(tx, new.supplier_id)?;
    let number = next_number(tx)?;
    let id = tx
        .prepare_cached(
            "INSERT INTO purchase_orders (number, supplier_id, status, note, created_at)
             VALUES (?1, ?2, 'draft', ?3, ?4)",
        )?
        .insert(params![number, new.supplier_id, new.note, time::now()])?;
    write_lines(tx, id, &new)?;
    let order = require(tx, id)?;
    tx.emit("purchase_order.created", &order)?;
    Ok(order)
}

/// A draft from the supplier's pets at or below their reorder point; `None` when none is.
/// Units already on an open purchase order (draft, sent or partial: ordered less received,
/// from any supplier) count as stock: a pet is suggested only while its stock and those
/// units together are still at or below its reorder point, so asking twice orders once.
fn suggest(tx: &mut Tx<'_>, supplier_id: i64) -> Result<Option<PurchaseOrder>> {
    suppliers::require_for_pet(tx, supplier_id)?;
    let low: Vec<(i64, Option<i64>, i64, i64)> = tx
        .prepare_cached(
            "SELECT id, reorder_quantity, reorder_point, coming FROM (
               SELECT p.id, p.reorder_quantity, i.reorder_point,
                      i.quantity + CAST(COALESCE((
                        SELECT SUM(l.ordered - l.received)
                        FROM purchase_order_lines l
                        JOIN purchase_orders o ON o.id = l.purchase_order_id
                        WHERE l.pet_id = p.id
                          AND o.status IN ('draft', 'sent', 'partial')), 0) AS BIGINT) AS coming
               FROM pets p JOIN inventory i ON i.pet_id = p.id
               WHERE p.supplier_id = ?1 AND i.reorder_point IS NOT NULL
             ) low
             WHERE coming <= reorder_point
             ORDER BY id LIMIT ?2",
        )?
        .query_map(params![supplier_id, purchase_order::LINES.max], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })?
        .collect::<DbResult<_>>()?;
    if low.is_empty() {
        return Ok(None);
    }
    let lines = low
        .into_iter()
        .map(
            |(pet_id, reorder_quantity, point, stock)| purchase_order::NewLine {
                pet_id,
                quantity: purchase_order::suggested_units(reorder_quantity, point, stock),
                cost: None,
            },
        )
        .collect();
    let new = NewPurchaseOrder {
        supplier_id,
        lines,
        note: None,
    };
    create(tx, new).map(Some)
}

/// Locks the order's row until this transaction ends (on PostgreSQL; SQLite's one writer
/// already takes writes one at a time), then reads it.
fn lock(tx: &Tx<'_>, id: i64) -> Result<PurchaseOrder> {
    tx.prepare_cached("UPDATE purchase_orders SET status = status WHERE id = ?1")?
        .execute([id])?;
    require(tx, id)
}

/// Sets the order's status (and when it was sent or closed), announcing the change.
fn set_status(tx: &mut Tx<'_>, id: i64, status: Status) -> Result<PurchaseOrder> {
    let now = time::now();
    let sent = (status == Status::Sent).then(|| now.clone());
    let closed = status.closed().then_some(now);
    tx.prepare_cached(
        "UPDATE purchase_orders SET status = ?2, sent_at = COALESCE(?3, sent_at),
         closed_at = COALESCE(?4, closed_at) WHERE id = ?1",
    )?
    .execute(params![id, status.as_str(), sent, closed])?;
    let order = require(tx, id)?;
    tx.emit("purchase_order.changed", &order)?;
    Ok(order)
}

fn replace(
    tx: &mut Tx<'_>,
    id: i64,
    new: NewPurchaseOrder,
    pre: &Precondition,
) -> Result<PurchaseOrder> {
    let current = lock(tx, id)?;
    current.status.check_edit(id)?;
    pre.check(&current)?;
    if new.supplier_id != current.supplier_id {
        suppliers::require_for_pet(tx, new.supplier_id)?;
    }
    tx.prepare_cached("UPDATE purchase_orders SET supplier_id = ?2, note = ?3 WHERE id = ?1")?
        .execute(params![id, new.supplier_id, new.note])?;
    write_lines(tx, id, &new)?;
    let order = require(tx, id)?;
    if order != current {
        tx.emit("purchase_order.changed", &order)?;
    }
    Ok(order)
}

fn send(tx: &mut Tx<'_>, id: i64) -> Result<PurchaseOrder> {
    lock(tx, id)?.status.check_send(id)?;
    set_status(tx, id, Status::Sent)
}

fn cancel(tx: &mut Tx<'_>, id: i64) -> Result<PurchaseOrder> {
    let current = lock(tx, id)?;
    current.status.check_cancel(id)?;
    if current.lines.iter().any(|l| l.received > 0) {
        return Err(DomainError::Conflict(format!(
            "purchase order {id} is partly received and cannot be cancelled"
        ))
        .into());
    }
    set_status(tx, id, Status::Cancelled)
}

/// Adds a receipt's units to stock and to the lines received; see the module's guarantees.
fn receive(tx: &mut Tx<'_>, id: i64, receipt: Receipt, by: Option<&str>) -> Result<PurchaseOrder> {
    let current = lock(tx, id)?;
    current.status.check_receive(id)?;
    for (i, &(pet_id, units)) in receipt.lines.iter().enumerate() {
        let line = current.lines.iter().find(|l| l.pet_id == pet_id);
        purchase_order::check_receipt(id, line, pet_id, units).map_err(|e| e.at_line(i))?;
        let moved = tx
            .prepare_cached(
                "UPDATE purchase_order_lines SET received = received + ?3
                 WHERE purchase_order_id = ?1 AND pet_id = ?2 AND received + ?3 <= ordered",
            )?
            .execute(params![id, pet_id, units])?;
        if moved == 0 {
            let left = line.map_or(0, |l| l.ordered - l.received);
            return Err(DomainError::OverReceipt {
                order_id: id,
                pet_id,
                left,
                requested: units,
            }
            .at_line(i)
            .into());
        }
        stock_in(tx, id, pet_id, units, by).map_err(|e| match e {
            StoreError::Domain(d) => StoreError::Domain(d.at_line(i)),
            other => other,
        })?;
    }
    let lines = require(tx, id)?.lines;
    set_status(tx, id, purchase_order::status_after_receipt(&lines))
}

/// Puts `units` of a pet into stock, with a history entry naming the purchase order.
fn stock_in(
    tx: &mut Tx<'_>,
    order_id: i64,
    pet_id: i64,
    units: i64,
    by: Option<&str>,
) -> Result<()> {
    let Some(after) = inventory::move_count(tx, pet_id, units)? else {
        return Err(DomainError::Conflict(format!(
            "pet {pet_id} is gone, or {units} more would take its stock past the most a shop can hold"
        ))
        .into());
    };
    tx.prepare_cached(
        "INSERT INTO stock_changes (pet_id, delta, quantity_after, reason, source, order_id,
             key_name, at, staff_id, purchase_order_id)
         VALUES (?1, ?2, ?3, NULL, 'received', NULL, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        pet_id,
        units,
        after,
        by,
        time::now(),
        tx.member().map(|m| m.id),
        order_id
    ])?;
    let item = inventory::require(tx, pet_id)?;
    inventory::announce_moved(tx, &item, units)
}

/// A line of one purchase order as its CSV writes it, with the pet's codes and name.
pub struct CsvLine {
    pub line: Line,
    pub sku: Option<String>,
    pub barcode: Option<String>,
    pub name: Option<String>,
}

fn csv_lines(conn: &Connection, id: i64) -> Result<Vec<CsvLine>> {
    let order = require(conn, id)?;
    let mut out = Vec::with_capacity(order.lines.len());
    for line in order.lines {
        let pet = pets::get(conn, line.pet_id)?;
        out.push(CsvLine {
            sku: pet.as_ref().and_then(|p| p.sku.clone()),
            barcode: pet.as_ref().and_then(|p| p.barcode.clone()),
            name: pet.map(|p| p.name),
            line,
        });
    }
    Ok(out)
}

/// What the shop orders from its suppliers: `store.purchase_orders()`.
pub struct PurchaseOrders<'s>(pub(super) &'s Store);

impl<'s> PurchaseOrders<'s> {
    /// One page of purchase orders, newest first.
    pub fn list(&self, query: PurchaseOrderQuery) -> Call<'s, Paged<PurchaseOrder>> {
        let pages = self.0.pages();
        Call::read(self.0, move |c| list(c, &pages, &query))
    }

    /// The purchase order, or `not_found`.
    pub fn get(&self, id: i64) -> Call<'s, PurchaseOrder> {
        Call::read(self.0, move |c| require(c, id))
    }

    /// The order's lines with their pets' codes and names, for its CSV.
    pub fn csv_lines(&self, id: i64) -> Call<'s, Vec<CsvLine>> {
        Call::read(self.0, move |c| csv_lines(c, id))
    }

    /// Creates a draft.
    pub fn create(&self, new: NewPurchaseOrder) -> Call<'s, PurchaseOrder> {
        Call::write(self.0, move |tx| create(tx, new))
    }

    /// A draft of what is low from this supplier; `None` when nothing is.
    pub fn suggest(&self, supplier_id: i64) -> Call<'s, Option<PurchaseOrder>> {
        Call::write(self.0, move |tx| suggest(tx, supplier_id))
    }

    /// Replaces a draft's supplier, lines and note.
    pub fn replace(
        &self,
        id: i64,
        new: NewPurchaseOrder,
        pre: Precondition,
    ) -> Call<'s, PurchaseOrder> {
        Call::write(self.0, move |tx| replace(tx, id, new, &pre))
    }

    /// Marks a draft sent.
    pub fn send(&self, id: i64) -> Call<'s, PurchaseOrder> {
        Call::write(self.0, move |tx| send(tx, id))
    }

    /// Cancels a draft, or a sent order with nothing received.
    pub fn cancel(&self, id: i64) -> Call<'s, PurchaseOrder> {
        Call::write(self.0, move |tx| cancel(tx, id))
    }

    /// Receives units into stock, made `by` the named key.
    pub fn receive(
        &self,
        id: i64,
        receipt: Receipt,
        by: Option<String>,
    ) -> Call<'s, PurchaseOrder> {
        Call::write(self.0, move |tx| receive(tx, id, receipt, by.as_deref())).changing_many_pages()
    }
}
