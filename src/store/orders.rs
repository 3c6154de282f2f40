//! Placing, completing and cancelling orders, with their effects on stock and status
//! (the rules live in [`crate::domain::order`]; this file applies them in one transaction).

use std::sync::LazyLock;

use rusqlite::params;
use rusqlite::types::Value;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::inventory::{self, Cause};
use super::pages::Pages;
use super::sql::{self, Filter, ListSql};
use super::{pets, Call, Result, Store, Tx};
use crate::domain::inventory::{InventoryItem, Source};
use crate::domain::order::{self, CancelledOrder, NewOrder, Order, OrderChange, OrderPatch};
use crate::domain::query::{OrderQuery, Page, Paged};
use crate::domain::{time, DomainError, Precondition};

const COLUMNS: &str =
    "id, pet_id, quantity, ship_date, complete, created_at, completed_at, unit_price, sale_id, \
     pet_name";

/// The statement that reads one record by id, written out once (not on every read).
static BY_ID: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {COLUMNS} FROM orders WHERE id = ?1"));

fn from_row(row: &Row<'_>) -> DbResult<Order> {
    let quantity = row.get(2)?;
    let unit_price = row.get(7)?;
    Ok(Order {
        id: row.get(0)?,
        pet_id: row.get(1)?,
        quantity,
        ship_date: row.get(3)?,
        complete: row.get(4)?,
        placed_at: row.get(5)?,
        completed_at: row.get(6)?,
        unit_price,
        total: Order::total_of(unit_price, quantity),
        sale_id: row.get(8)?,
        pet_name: row.get(9)?,
    })
}

fn get(conn: &Connection, id: i64) -> Result<Option<Order>> {
    Ok(conn
        .prepare_cached(&BY_ID)?
        .query_row([id], from_row)
        .optional()?)
}

fn require(conn: &Connection, id: i64) -> Result<Order> {
    get(conn, id)?.ok_or(DomainError::NotFound { kind: "order", id }.into())
}

/// Orders, newest first.
fn list(conn: &Connection, pages: &Pages, query: &OrderQuery) -> Result<Paged<Order>> {
    let mut filter = Filter::default();
    if let Some(complete) = query.complete {
        filter.and("complete = ?", [Value::Integer(i64::from(complete))]);
    }
    if let Some(pet_id) = query.pet_id {
        filter.and("pet_id = ?", [Value::Integer(pet_id)]);
    }
    let list = ListSql {
        columns: COLUMNS,
        from: "orders",
        order: "id DESC",
        key: Some(("id", true)),
        then_id: None,
        tables: &["orders"],
    };
    sql::paged(conn, pages, &list, &filter, query.page, from_row)
}

/// Cancelled orders, newest first (id descending, as the other order lists).
fn cancelled(conn: &Connection, pages: &Pages, page: Page) -> Result<Paged<CancelledOrder>> {
    let list = ListSql {
        columns: "id, pet_id, quantity, unit_price, placed_at, cancelled_at, pet_name",
        from: "cancelled_orders",
        order: "id DESC",
        key: None,
        then_id: None,
        tables: &["cancelled_orders"],
    };
    sql::paged(conn, pages, &list, &Filter::default(), page, |row| {
        let quantity = row.get(2)?;
        let unit_price = row.get(3)?;
        Ok(CancelledOrder {
            id: row.get(0)?,
            pet_id: row.get(1)?,
            quantity,
            unit_price,
            total: Order::total_of(unit_price, quantity),
            placed_at: row.get(4)?,
            cancelled_at: row.get(5)?,
            pet_name: row.get(6)?,
        })
    })
}

fn open_orders(conn: &Connection, pet_id: i64) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT COUNT(*) FROM orders WHERE pet_id = ?1 AND complete = 0")?
        .query_row([pet_id], |row| row.get(0))?)
}

/// Places an order: takes its units out of stock and moves the pet to `pending` when the
/// last unit goes (rules 1 and 2). The units are taken by one conditional statement, so two
/// tills selling the last unit at once cannot both have it.
fn place(tx: &mut Tx<'_>, new: NewOrder, key_name: Option<&str>) -> Result<Order> {
    let pet = pets::get(tx, new.pet_id)?.ok_or(DomainError::UnknownPet(new.pet_id))?;
    let item = inventory::require(tx, pet.id)?;
    order::place(pet.id, pet.status, item.quantity, new.quantity)?;
    pets::check_not_held(tx, &pet)?;
    let placed_at = time::now();
    let id = tx
        .prepare_cached(
            "INSERT INTO orders (pet_id, quantity, ship_date, complete, created_at, unit_price,
                 pet_name)
             VALUES (?1, ?2, ?3, 0, ?4, ?5, ?6)",
        )?
        .insert(params![
            pet.id,
            new.quantity,
            new.ship_date,
            placed_at,
            pet.price,
            pet.name
        ])?;
    let order = Order {
        id,
        pet_id: pet.id,
        quantity: new.quantity,
        ship_date: new.ship_date,
        complete: false,
        placed_at,
        completed_at: None,
        unit_price: pet.price,
        total: Order::total_of(pet.price, new.quantity),
        sale_id: None,
        pet_name: Some(pet.name.clone()),
    };
    let Some(after) = inventory::move_count(tx, pet.id, -new.quantity)? else {
        // Someone else took the units since they were counted: refuse with today's count.
        let now = inventory::require(tx, pet.id)?.quantity;
        return Err(DomainError::InsufficientStock {
            pet_id: pet.id,
            available: now,
            requested: new.quantity,
        }
        .into());
    };
    tx.emit("order.created", &order)?;
    let status_after = order::status_after_placing(pet.status, after);
    pets::set_status(tx, &pet, status_after)?;
    inventory::record(
        tx,
        pet.id,
        -new.quantity,
        after,
        Cause {
            source: Source::Order,
            reason: None,
            order_id: Some(order.id),
            key_name,
        },
    )?;
    let item = InventoryItem {
        reorder_point: item.reorder_point,
        ..InventoryItem::new(pet.id, after, status_after)
    };
    inventory::announce_moved(tx, &item, -new.quantity)?;
    Ok(order)
}

/// Applies a change to an order; completing it may sell the pet (rules 3 and 6).
fn update(tx: &mut Tx<'_>, id: i64, patch: OrderPatch, pre: &Precondition) -> Result<Order> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    let now = time::now();
    match order::change(&current, &patch, &now)? {
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
            // Only an open order completes: a second completion racing this one changes nothing.
            let done = tx
                .prepare_cached(
                    "UPDATE orders SET complete = 1, ship_date = ?2, completed_at = ?3
                     WHERE id = ?1 AND complete = 0",
                )?
                .execute(params![id, ship_date, now])?;
            if done == 0 {
                return Err(DomainError::OrderAlreadyComplete(id).into());
            }
            let updated = Order {
                complete: true,
                ship_date: Some(ship_date),
                completed_at: Some(now),
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
fn cancel(tx: &mut Tx<'_>, id: i64, pre: &Precondition, key_name: Option<&str>) -> Result<()> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    order::cancel(&current)?;
    // Only an open order is cancelled: a completion racing this one wins or loses whole.
    let gone = tx
        .prepare_cached("DELETE FROM orders WHERE id = ?1 AND complete = 0")?
        .execute([id])?;
    if gone == 0 {
        return Err(DomainError::OrderAlreadyComplete(id).into());
    }
    // Kept for the daily report, which counts a cancelled order on the day it was placed
    // and the day it was cancelled.
    tx.prepare_cached(
        "INSERT INTO cancelled_orders (id, pet_id, quantity, unit_price, placed_at, cancelled_at,
             pet_name)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        id,
        current.pet_id,
        current.quantity,
        current.unit_price,
        current.placed_at,
        time::now(),
        current.pet_name
    ])?;
    tx.emit("order.cancelled", &current)?;
    if let Some(pet) = pets::get(tx, current.pet_id)? {
        let status = order::status_after_cancel(pet.status);
        pets::set_status(tx, &pet, status)?;
        let cause = Cause {
            source: Source::Cancel,
            reason: None,
            order_id: Some(id),
            key_name,
        };
        if inventory::shift(tx, pet.id, current.quantity, cause)?.is_none() {
            // Interface 1.1: a cancel that would lift stock past the maximum is 409 `conflict`.
            return Err(DomainError::Conflict(format!(
                "returning {} units would take pet {}'s stock above the most a shop can hold",
                current.quantity, pet.id
            ))
            .into());
        }
    }
    Ok(())
}

/// Placing, completing and cancelling orders: `store.orders()`.
pub struct Orders<'s>(pub(super) &'s Store);

impl<'s> Orders<'s> {
    /// Orders matching `query`, newest first.
    pub fn list(&self, query: OrderQuery) -> Call<'s, Paged<Order>> {
        let pages = self.0.pages();
        Call::read(self.0, move |c| list(c, &pages, &query))
    }

    /// Cancelled orders, newest first (id descending, as the other order lists).
    pub fn cancelled(&self, page: Page) -> Call<'s, Paged<CancelledOrder>> {
        let pages = self.0.pages();
        Call::read(self.0, move |c| cancelled(c, &pages, page))
    }

    /// The order, or `not_found`.
    pub fn get(&self, id: i64) -> Call<'s, Order> {
        Call::read(self.0, move |c| require(c, id))
    }

    /// Places an order, made `by` the named key.
    pub fn place(&self, new: NewOrder, by: Option<String>) -> Call<'s, Order> {
        Call::write(self.0, move |tx| place(tx, new, by.as_deref()))
    }

    /// Changes an order's ship date, or completes it.
    pub fn update(&self, id: i64, patch: OrderPatch, pre: Precondition) -> Call<'s, Order> {
        Call::write(self.0, move |tx| update(tx, id, patch, &pre))
    }

    /// Cancels an open order, made `by` the named key.
    pub fn cancel(&self, id: i64, pre: Precondition, by: Option<String>) -> Call<'s, ()> {
        Call::write(self.0, move |tx| cancel(tx, id, &pre, by.as_deref()))
    }

    /// Moves an order's placing (and completion, if any) back to `placed_at`, for the demo
    /// shop's history. Not part of the interface: a real order's times are the store's own.
    pub fn backdate(
        &self,
        id: i64,
        placed_at: String,
        completed_at: Option<String>,
    ) -> Call<'s, ()> {
        Call::write(self.0, move |tx| {
            backdate(tx, id, &placed_at, completed_at.as_deref())
        })
    }
}

fn backdate(tx: &mut Tx<'_>, id: i64, placed_at: &str, completed_at: Option<&str>) -> Result<()> {
    tx.prepare_cached(
        "UPDATE orders SET created_at = ?2,
             completed_at = CASE WHEN completed_at IS NULL THEN NULL ELSE COALESCE(?3, completed_at) END
         WHERE id = ?1",
    )?
    .execute(params![id, placed_at, completed_at])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::{Arc, Mutex};

    use super::COLUMNS;
    use crate::domain::category::NewCategory;
    use crate::domain::idempotency::Scope;
    use crate::domain::inventory::InventoryUpdate;
    use crate::domain::order::NewOrder;
    use crate::domain::pet::{NewPet, PetStatus};
    use crate::domain::Precondition;
    use crate::store::db::Connection;
    use crate::store::{connection, idempotency, Call, Store, Tx};

    /// A pet's orders are read from the index `orders_by_pet` alone: on a large store the
    /// table pages of one pet's orders lie far apart, and reading them was most of the cost
    /// of the list. Adding a column to what an order answers with means adding it there too.
    #[test]
    fn a_pets_orders_are_read_from_their_index_alone() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let store = Store::open(&dir.path().join("store.sqlite")).expect("a store");
        let plan = Call::read(&store, |conn| {
            let sql = format!(
                "EXPLAIN QUERY PLAN SELECT {COLUMNS} FROM orders WHERE pet_id = ?1 ORDER BY id DESC"
            );
            let mut statement = conn.prepare_cached(&sql)?;
            let rows = statement.query_map([1], |row| row.get::<_, String>(3))?;
            Ok(rows.collect::<crate::store::db::DbResult<Vec<_>>>()?)
        })
        .wait()
        .expect("the plan");
        store.close();
        assert!(
            plan.iter()
                .any(|step| step.contains("USING COVERING INDEX orders_by_pet")),
            "{plan:?}"
        );
    }

    /// What one order placed with an `Idempotency-Key` writes, as the writer places it: the
    /// rows it changed in each table (from SQLite's update hook, which does not see the
    /// `WITHOUT ROWID` idempotency table) and the rows it changed in all (SQLite's count).
    /// On a store made by the server and given one pet with stock.
    struct OneOrder {
        tables: BTreeMap<String, usize>,
        changed: u64,
        conn: rusqlite::Connection,
        _dir: tempfile::TempDir,
    }

    fn rows_written_by_one_order() -> OneOrder {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("store.sqlite");
        let store = Store::open(&path).expect("a store");
        let category = store
            .categories()
            .create(NewCategory {
                name: "Fish".into(),
                description: None,
            })
            .wait()
            .expect("a category");
        let pet = store
            .pets()
            .create(NewPet {
                status: Some(PetStatus::Available),
                price: Some(250),
                ..NewPet::named("Goldie", category.id)
            })
            .wait()
            .expect("a pet");
        let stock = InventoryUpdate {
            quantity: 1_000,
            reason: None,
        };
        store
            .inventory()
            .set(pet.id, stock, None, Precondition::None)
            .wait()
            .expect("its stock");
        store.close();

        let mut lite = connection::open_writer(&path).expect("the writer's connection");
        let written = Arc::new(Mutex::new(BTreeMap::<String, usize>::new()));
        let seen = written.clone();
        lite.update_hook(Some(move |_, _: &str, table: &str, _| {
            *seen
                .lock()
                .expect("the tally")
                .entry(table.to_owned())
                .or_default() += 1;
        }))
        .expect("an update hook");
        let conn = Connection::Lite(lite);
        conn.execute_batch("BEGIN IMMEDIATE")
            .expect("a transaction");
        let before = conn.lite().expect("SQLite").total_changes();
        let scope = Scope {
            key_id: 1,
            key: "one-order".into(),
            request_hash: "hash".into(),
        };
        let new = NewOrder {
            pet_id: pet.id,
            quantity: 1,
            ship_date: None,
        };
        let mut tx = Tx::new(&conn);
        idempotency::once(&mut tx, Some(&scope), |tx| super::place(tx, new, None))
            .expect("the order");
        drop(tx);
        let changed = conn.lite().expect("SQLite").total_changes() - before;
        conn.execute_batch("COMMIT").expect("the commit");
        let tally = written.lock().expect("the tally").clone();
        let Connection::Lite(lite) = conn else {
            unreachable!("opened on SQLite")
        };
        OneOrder {
            tables: tally,
            changed,
            conn: lite,
            _dir: dir,
        }
    }

    /// Every order is one write of each of these rows, and the writer's CPU per order follows
    /// the rows it writes: a trigger, a second history entry or another event per order would
    /// show here before it shows in the benchmark.
    #[test]
    fn placing_an_order_writes_one_order_one_count_one_history_entry_two_events_and_its_key() {
        let OneOrder {
            tables, changed, ..
        } = rows_written_by_one_order();
        let expected: BTreeMap<String, usize> = [
            ("events", 2),
            ("inventory", 1),
            ("orders", 1),
            ("stock_changes", 1),
        ]
        .into_iter()
        .map(|(table, rows)| (table.to_owned(), rows))
        .collect();
        assert_eq!(tables, expected);
        // The same rows and the idempotency record, which the hook does not see.
        assert_eq!(changed, 6);
    }

    /// SQLite checks an `IN` list of more than two values (in a CHECK, say) by building a
    /// temporary index on every run of the statement (`OpenEphemeral`), which showed in the
    /// writer's profile until migration 18. No table an order writes may need one: the
    /// program that writes a whole row of each (every CHECK, every index) opens none. That
    /// includes the pets, whose status an order that sells the last unit changes (their
    /// CHECK compares one value at a time since migration 25).
    #[test]
    fn no_table_an_order_writes_checks_its_rows_with_a_temporary_index() {
        let OneOrder { tables, conn, .. } = rows_written_by_one_order();
        let mut checked = Vec::new();
        for table in tables
            .keys()
            .map(String::as_str)
            .chain(["idempotency_records", "pets"])
        {
            let program: Vec<String> = conn
                .prepare(&format!("EXPLAIN INSERT INTO {table} DEFAULT VALUES"))
                .expect("an insert's program")
                .query_map([], |row| row.get(1))
                .expect("its steps")
                .collect::<rusqlite::Result<_>>()
                .expect("its steps");
            assert!(program.iter().any(|op| op == "Insert" || op == "IdxInsert"));
            assert!(
                !program.iter().any(|op| op == "OpenEphemeral"),
                "writing {table} builds a temporary index: {program:?}"
            );
            checked.push(table);
        }
        assert_eq!(checked.len(), 6, "{checked:?}");
    }
}
