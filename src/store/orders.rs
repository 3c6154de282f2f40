//! Placing, completing and cancelling orders, with their effects on stock and status
//! (the rules live in [`crate::domain::order`]; this file applies them in one transaction).

use rusqlite::types::Value;
use rusqlite::{params, Connection, OptionalExtension, Row};

use super::inventory::{self, Cause};
use super::sql::{self, Filter};
use super::{pets, Result, Tx};
use crate::domain::inventory::Source;
use crate::domain::order::{self, NewOrder, Order, OrderChange, OrderPatch};
use crate::domain::query::{OrderQuery, Paged};
use crate::domain::{etag, time, DomainError};

const COLUMNS: &str = "id, pet_id, quantity, ship_date, complete";

fn from_row(row: &Row<'_>) -> rusqlite::Result<Order> {
    Ok(Order {
        id: row.get(0)?,
        pet_id: row.get(1)?,
        quantity: row.get(2)?,
        ship_date: row.get(3)?,
        complete: row.get(4)?,
    })
}

pub fn get(conn: &Connection, id: i64) -> Result<Option<Order>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM orders WHERE id = ?1"))?
        .query_row([id], from_row)
        .optional()?)
}

pub fn require(conn: &Connection, id: i64) -> Result<Order> {
    get(conn, id)?.ok_or(DomainError::NotFound { kind: "order", id }.into())
}

/// Orders, newest first.
pub fn list(conn: &Connection, query: &OrderQuery) -> Result<Paged<Order>> {
    let mut filter = Filter::default();
    if let Some(complete) = query.complete {
        filter.and("complete = ?", [Value::Integer(i64::from(complete))]);
    }
    if let Some(pet_id) = query.pet_id {
        filter.and("pet_id = ?", [Value::Integer(pet_id)]);
    }
    sql::paged(
        conn,
        (COLUMNS, "orders", "id DESC"),
        &filter,
        query.page,
        from_row,
    )
}

fn open_orders(conn: &Connection, pet_id: i64) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT COUNT(*) FROM orders WHERE pet_id = ?1 AND complete = 0")?
        .query_row([pet_id], |row| row.get(0))?)
}

/// Places an order: takes its units out of stock and moves the pet to `pending` when the
/// last unit goes (rules 1 and 2).
pub fn place(tx: &mut Tx<'_>, new: NewOrder, key_name: Option<&str>) -> Result<Order> {
    let pet = pets::get(tx, new.pet_id)?.ok_or(DomainError::UnknownPet(new.pet_id))?;
    let item = inventory::require(tx, pet.id)?;
    let placement = order::place(pet.id, pet.status, item.quantity, new.quantity)?;
    tx.prepare_cached(
        "INSERT INTO orders (pet_id, quantity, ship_date, complete, created_at) VALUES (?1, ?2, ?3, 0, ?4)",
    )?
    .execute(params![pet.id, new.quantity, new.ship_date, time::now()])?;
    let order = Order {
        id: tx.last_insert_rowid(),
        pet_id: pet.id,
        quantity: new.quantity,
        ship_date: new.ship_date,
        complete: false,
    };
    tx.emit("order.created", &order)?;
    pets::set_status(tx, &pet, placement.status_after)?;
    let item =
        crate::domain::inventory::InventoryItem::new(pet.id, item.quantity, placement.status_after);
    inventory::apply(
        tx,
        &item,
        -new.quantity,
        Cause {
            source: Source::Order,
            reason: None,
            order_id: Some(order.id),
            key_name,
        },
    )?;
    Ok(order)
}

/// Applies a change to an order; completing it may sell the pet (rules 3 and 6).
pub fn update(
    tx: &mut Tx<'_>,
    id: i64,
    patch: OrderPatch,
    if_match: Option<&str>,
) -> Result<Order> {
    let current = require(tx, id)?;
    etag::check(if_match, &current)?;
    match order::change(&current, &patch, &time::now())? {
        OrderChange::None => Ok(current),
        OrderChange::ShipDate(date) => {
            tx.prepare_cached("UPDATE orders SET ship_date = ?2 WHERE id = ?1")?
                .execute(params![id, date])?;
            let updated = Order {
                ship_date: Some(date),
                ..current
            };
            tx.emit("order.updated", &updated)?;
            Ok(updated)
        }
        OrderChange::Complete { ship_date } => {
            tx.prepare_cached("UPDATE orders SET complete = 1, ship_date = ?2 WHERE id = ?1")?
                .execute(params![id, ship_date])?;
            let updated = Order {
                complete: true,
                ship_date: Some(ship_date),
                ..current
            };
            tx.emit("order.completed", &updated)?;
            if let Some(pet) = pets::get(tx, updated.pet_id)? {
                let stock = inventory::require(tx, pet.id)?.quantity;
                let status =
                    order::status_after_completion(pet.status, stock, open_orders(tx, pet.id)?);
                if status != pet.status {
                    pets::set_status(tx, &pet, status)?;
                    inventory::announce(tx, pet.id)?;
                }
            }
            Ok(updated)
        }
    }
}

/// Cancels an open order: it is gone, its units return to stock, and a `pending` pet is
/// `available` again (rule 4).
pub fn cancel(
    tx: &mut Tx<'_>,
    id: i64,
    if_match: Option<&str>,
    key_name: Option<&str>,
) -> Result<()> {
    let current = require(tx, id)?;
    etag::check(if_match, &current)?;
    order::cancel(&current)?;
    tx.prepare_cached("DELETE FROM orders WHERE id = ?1")?
        .execute([id])?;
    tx.emit("order.cancelled", &current)?;
    if let Some(pet) = pets::get(tx, current.pet_id)? {
        let status = order::status_after_cancel(pet.status);
        pets::set_status(tx, &pet, status)?;
        let item = inventory::require(tx, pet.id)?;
        inventory::apply(
            tx,
            &item,
            current.quantity,
            Cause {
                source: Source::Cancel,
                reason: None,
                order_id: Some(id),
                key_name,
            },
        )?;
    }
    Ok(())
}
