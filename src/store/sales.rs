//! Sales at the counter: a basket of lines paid at once, written in one transaction with
//! the stock moves (the rules live in [`crate::domain::sale_record`], the money in
//! [`crate::domain::tax`] and [`crate::domain::payment`]).
//!
//! Guarantees:
//! - all or nothing: every line's order, stock move and history entry, the sale and its
//!   payments commit together, or nothing does;
//! - the sale's `number` counts the store's sales from 1 without gaps: it is taken from the
//!   one row of `sale_numbers` by the sale's own transaction, after every check has passed,
//!   so a refused, failed or killed sale gives it back, and on PostgreSQL the row's lock
//!   makes sales of several processes take their numbers one at a time;
//! - a sale with a `till` counts toward the shift open for that till when it is written
//!   (`shift_id`), an offline sale sent later included;
//! - each line is also a completed order (`orders.sale_id`) placed at the sale's `soldAt`, so
//!   orders, the daily report and the stock history see the sale as they see orders.

use std::sync::LazyLock;

use chrono::NaiveDate;
use chrono_tz::Tz;
use rusqlite::params;
use rusqlite::types::Value;
use serde_json::json;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::inventory::{self, Cause};
use super::pages::Pages;
use super::sql::{self, Filter, ListSql};
use super::{pets, profile, shifts, Call, Result, Store, StoreError, Tx};
use crate::domain::animal;
use crate::domain::inventory::{InventoryItem, Source};
use crate::domain::order::Order;
use crate::domain::payment::{self, Method, Payment};
use crate::domain::pet::Pet;
use crate::domain::query::{Paged, SaleQuery};
use crate::domain::report::{self, start_of_day, Range};
use crate::domain::sale::{Customer, NewSale};
use crate::domain::sale_record::{self, LinePet, Sale, SaleLine, ShownCustomer};
use crate::domain::tax::{self, LineAmounts};
use crate::domain::{time, DomainError};

const COLUMNS: &str = "id, number, placed_at, sold_at, key_name, staff_id, till, subtotal, \
     discount, tax, total, change, customer_name, customer_phone, customer_email, note, refunded";

/// The statement that reads one record by id, written out once (not on every read).
static BY_ID: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {COLUMNS} FROM sales WHERE id = ?1"));

fn head_from_row(row: &Row<'_>) -> DbResult<Sale> {
    let name: Option<String> = row.get(12)?;
    let phone: Option<String> = row.get(13)?;
    let email: Option<String> = row.get(14)?;
    let customer = (name.is_some() || phone.is_some() || email.is_some())
        .then_some(ShownCustomer { name, phone, email });
    Ok(Sale {
        id: row.get(0)?,
        number: row.get(1)?,
        placed_at: row.get(2)?,
        sold_at: row.get(3)?,
        key_name: row.get(4)?,
        staff_id: row.get(5)?,
        till: row.get(6)?,
        lines: Vec::new(),
        subtotal: row.get(7)?,
        discount: row.get(8)?,
        tax: row.get(9)?,
        total: row.get(10)?,
        payments: Vec::new(),
        change: row.get(11)?,
        customer,
        note: row.get(15)?,
        refunded: row.get(16)?,
    })
}

/// Reads a sale's lines and payments into it.
fn fill(conn: &Connection, sale: &mut Sale) -> Result<()> {
    sale.lines = conn
        .prepare_cached(
            "SELECT pet_id, name, sku, barcode, quantity, unit_price, discount, tax_rate, tax,
                 total, order_id, short_by
             FROM sale_lines WHERE sale_id = ?1 ORDER BY line",
        )?
        .query_map([sale.id], |row| {
            Ok(SaleLine {
                pet_id: row.get(0)?,
                name: row.get(1)?,
                sku: row.get(2)?,
                barcode: row.get(3)?,
                quantity: row.get(4)?,
                unit_price: row.get(5)?,
                discount: row.get(6)?,
                tax_rate: row.get(7)?,
                tax: row.get(8)?,
                total: row.get(9)?,
                order_id: row.get(10)?,
                short_by: row.get(11)?,
            })
        })?
        .collect::<DbResult<_>>()?;
    let payments: Vec<(String, i64)> = conn
        .prepare_cached(
            "SELECT method, amount FROM sale_payments WHERE sale_id = ?1 ORDER BY position",
        )?
        .query_map([sale.id], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<DbResult<_>>()?;
    sale.payments = payments
        .into_iter()
        .map(|(method, amount)| {
            Method::parse("method", &method)
                .map(|method| Payment { method, amount })
                .map_err(|_| StoreError::Internal(format!("a stored payment method {method:?}")))
        })
        .collect::<Result<_>>()?;
    Ok(())
}

fn get(conn: &Connection, id: i64) -> Result<Option<Sale>> {
    let head = conn
        .prepare_cached(&BY_ID)?
        .query_row([id], head_from_row)
        .optional()?;
    let Some(mut sale) = head else {
        return Ok(None);
    };
    fill(conn, &mut sale)?;
    Ok(Some(sale))
}

pub(super) fn require(conn: &Connection, id: i64) -> Result<Sale> {
    get(conn, id)?.ok_or(DomainError::NotFound { kind: "sale", id }.into())
}

/// Sales matching `query`, newest first; dates are the store's local days of `soldAt`.
fn list(conn: &Connection, pages: &Pages, query: &SaleQuery) -> Result<Paged<Sale>> {
    let tz: Tz = profile::get(conn)?.tz();
    let mut filter = Filter::default();
    if let Some(from) = query.from {
        filter.and(
            "sold_at >= ?",
            [Value::Text(time::format(start_of_day(tz, from)))],
        );
    }
    if let Some(to) = query.to {
        let end = Range { from: to, to }.utc_bounds(tz).1;
        filter.and("sold_at < ?", [Value::Text(end)]);
    }
    if let Some(till) = &query.till {
        filter.and("till = ?", [Value::Text(till.clone())]);
    }
    if let Some(staff_id) = query.staff_id {
        filter.and("staff_id = ?", [Value::Integer(staff_id)]);
    }
    if let Some(method) = query.method {
        filter.and(
            "id IN (SELECT sale_id FROM sale_payments WHERE method = ?)",
            [Value::Text(method.as_str().into())],
        );
    }
    let list = ListSql {
        columns: COLUMNS,
        from: "sales",
        order: "id DESC",
        key: Some(("id", true)),
        then_id: None,
        tables: &["sales"],
    };
    let mut page = sql::paged(conn, pages, &list, &filter, query.page, head_from_row)?;
    for sale in &mut page.items {
        fill(conn, sale)?;
    }
    Ok(page)
}

fn open_orders(conn: &Connection, pet_id: i64) -> Result<i64> {
    Ok(conn
        .prepare_cached("SELECT COUNT(*) FROM orders WHERE pet_id = ?1 AND complete = 0")?
        .query_row([pet_id], |row| row.get(0))?)
}

/// Takes the next sale number in this transaction.
fn next_number(tx: &Tx<'_>) -> Result<i64> {
    tx.prepare_cached("UPDATE sale_numbers SET last = last + 1 WHERE id = 1")?
        .execute([])?;
    Ok(tx
        .prepare_cached("SELECT last FROM sale_numbers WHERE id = 1")?
        .query_row([], |row| row.get(0))?)
}

/// Takes up to `quantity` units of a pet from stock: all of them, or (`offline`) as many as
/// there are. The units taken and the count after. A sale at the counter, whose lines were
/// checked against the stock already, moves the count first and reads it only when the
/// move finds too few (the move is conditional: it never takes more than there are). On
/// PostgreSQL another process may move the count between the read and the move; the move
/// then changes nothing and is tried again from the new count.
fn take_stock(
    tx: &Tx<'_>,
    pet_id: i64,
    quantity: i64,
    offline: bool,
    line: usize,
) -> Result<(i64, i64)> {
    if !offline {
        if let Some(after) = inventory::move_count(tx, pet_id, -quantity)? {
            return Ok((quantity, after));
        }
    }
    for _ in 0..8 {
        let stock = inventory::require(tx, pet_id)?.quantity;
        let take = if offline {
            quantity.min(stock)
        } else if quantity > stock {
            return Err(DomainError::InsufficientStock {
                pet_id,
                available: stock,
                requested: quantity,
            }
            .at_line(line)
            .into());
        } else {
            quantity
        };
        if take == 0 {
            return Ok((0, stock));
        }
        if let Some(after) = inventory::move_count(tx, pet_id, -take)? {
            return Ok((take, after));
        }
    }
    Err(StoreError::Busy)
}

/// The rules a sale at the counter keeps for a pet (an offline sale, a fact already, keeps
/// neither): not while it is on hold, and an individual animal only to a named buyer.
fn animal_rules(
    pet: &Pet,
    customer: Option<&Customer>,
    today: NaiveDate,
) -> Result<(), DomainError> {
    animal::check_not_held(pet.id, pet.hold.as_ref(), today)?;
    let named = customer.is_some_and(|c| {
        animal::names_buyer(c.name.as_deref(), c.phone.as_deref(), c.email.as_deref())
    });
    if pet.animal.is_some() && !named {
        return Err(DomainError::BuyerRequired(pet.id));
    }
    Ok(())
}

/// Records a sale: checks and prices every line (the first failing line decides the
/// answer), checks the payments, then takes its number and writes it all.
/// `contact`: whether the answer shows the customer's phone and email (it is remembered for
/// an `Idempotency-Key`'s replay as answered).
fn place(tx: &mut Tx<'_>, new: NewSale, key_name: Option<&str>, contact: bool) -> Result<Sale> {
    let profile = profile::get(tx)?;
    let today = report::today(profile.tz());
    let mut priced = Vec::with_capacity(new.lines.len());
    // Each line's reorder point, read with its stock: the item announced after the move.
    let mut reorder_points = Vec::with_capacity(new.lines.len());
    for (index, line) in new.lines.iter().enumerate() {
        let found = match pets::get(tx, line.pet_id)? {
            Some(pet) => {
                let item = inventory::require(tx, pet.id)?;
                reorder_points.push(item.reorder_point);
                Some(LinePet {
                    stock: item.quantity,
                    tax_rate: profile.rate_for(pet.tax_rate),
                    pet,
                })
            }
            None => None,
        };
        // Open orders decide a status only when the line takes the last unit.
        let open = if found.as_ref().is_some_and(|f| f.stock > line.quantity) {
            0
        } else {
            open_orders(tx, line.pet_id)?
        };
        let line =
            sale_record::price_line(index, line, found, open, profile.tax_included, new.offline)?;
        if !new.offline {
            animal_rules(&line.pet, new.customer.as_ref(), today)
                .map_err(|error| error.at_line(index))?;
        }
        priced.push(line);
    }
    let amounts: Vec<LineAmounts> = priced.iter().map(|line| line.amounts).collect();
    let sums = tax::sale(&amounts);
    let change = payment::change(sums.total, &new.payments).map_err(DomainError::from)?;

    let number = next_number(tx)?;
    let placed_at = new.received_at.clone();
    let staff_id = tx.member().map(|member| member.id);
    let customer = new.customer.clone().unwrap_or_default();
    let shift_id = shifts::open_for(tx, new.till.as_deref())?;
    let id = tx
        .prepare_cached(
            "INSERT INTO sales (number, placed_at, sold_at, key_name, staff_id, till, subtotal,
                 discount, tax, total, change, tax_included, offline, customer_name,
                 customer_phone, customer_email, note, shift_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                 ?18)",
        )?
        .insert(params![
            number,
            placed_at,
            new.sold_at,
            key_name,
            staff_id,
            new.till,
            sums.subtotal,
            sums.discount,
            sums.tax,
            sums.total,
            change,
            profile.tax_included,
            new.offline,
            customer.name,
            customer.phone,
            customer.email,
            new.note,
            shift_id
        ])?;

    let mut lines = Vec::with_capacity(priced.len());
    for ((index, line), reorder_point) in priced.into_iter().enumerate().zip(reorder_points) {
        let pet = line.pet;
        let order_id = tx
            .prepare_cached(
                "INSERT INTO orders (pet_id, quantity, ship_date, complete, created_at,
                     completed_at, unit_price, sale_id, pet_name)
                 VALUES (?1, ?2, ?3, 1, ?3, ?3, ?4, ?5, ?6)",
            )?
            .insert(params![
                pet.id,
                line.quantity,
                new.sold_at,
                line.unit_price,
                id,
                pet.name
            ])?;
        let order = Order {
            id: order_id,
            pet_id: pet.id,
            quantity: line.quantity,
            ship_date: Some(new.sold_at.clone()),
            complete: true,
            placed_at: new.sold_at.clone(),
            completed_at: Some(new.sold_at.clone()),
            unit_price: Some(line.unit_price),
            total: Some(line.amounts.gross),
            sale_id: Some(id),
            pet_name: Some(pet.name.clone()),
        };
        tx.emit("order.created", &order)?;
        let (taken, after) = take_stock(tx, pet.id, line.quantity, new.offline, index)?;
        let short_by = (taken < line.quantity).then(|| line.quantity - taken);
        // Open orders decide the status only once the last unit is gone.
        let open = if after == 0 {
            open_orders(tx, pet.id)?
        } else {
            0
        };
        let status = sale_record::status_after_line(pet.status, after, open);
        pets::set_status(tx, &pet, status)?;
        if taken > 0 {
            inventory::record(
                tx,
                pet.id,
                -taken,
                after,
                Cause {
                    source: Source::Order,
                    reason: None,
                    order_id: Some(order_id),
                    key_name,
                },
            )?;
            // The count just moved and the status just set: the item as it now reads.
            let item = InventoryItem {
                reorder_point,
                ..InventoryItem::new(pet.id, after, status)
            };
            inventory::announce_moved(tx, &item, -taken)?;
        } else if status != pet.status {
            inventory::announce(tx, pet.id)?;
        }
        tx.prepare_cached(
            "INSERT INTO sale_lines (sale_id, line, pet_id, name, sku, barcode, quantity,
                 unit_price, discount, tax_rate, tax, total, order_id, short_by)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        )?
        .execute(params![
            id,
            index as i64,
            pet.id,
            pet.name,
            pet.sku,
            pet.barcode,
            line.quantity,
            line.unit_price,
            line.amounts.discount,
            line.tax_rate,
            line.amounts.tax,
            line.amounts.total,
            order_id,
            short_by
        ])?;
        if let Some(short_by) = short_by {
            tx.emit(
                "inventory.short",
                &json!({
                    "petId": pet.id,
                    "saleId": id,
                    "number": number,
                    "line": index,
                    "quantity": line.quantity,
                    "shortBy": short_by,
                    "soldAt": new.sold_at,
                }),
            )?;
        }
        lines.push(SaleLine {
            pet_id: pet.id,
            name: pet.name,
            sku: pet.sku,
            barcode: pet.barcode,
            quantity: line.quantity,
            unit_price: line.unit_price,
            discount: line.amounts.discount,
            tax_rate: line.tax_rate,
            tax: line.amounts.tax,
            total: line.amounts.total,
            order_id,
            short_by,
        });
    }
    for (position, paid) in new.payments.iter().enumerate() {
        tx.prepare_cached(
            "INSERT INTO sale_payments (sale_id, position, method, amount) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![
            id,
            position as i64,
            paid.method.as_str(),
            paid.amount
        ])?;
    }
    let sale = Sale {
        id,
        number,
        placed_at,
        sold_at: new.sold_at,
        key_name: key_name.map(str::to_owned),
        staff_id,
        till: new.till,
        lines,
        subtotal: sums.subtotal,
        discount: sums.discount,
        tax: sums.tax,
        total: sums.total,
        payments: new.payments,
        change,
        customer: new.customer.as_ref().map(ShownCustomer::full),
        note: new.note,
        refunded: 0,
    };
    // Events reach every key that may read, so they carry the customer without contact.
    tx.emit("sale.created", &sale.clone().without_contact())?;
    Ok(if contact {
        sale
    } else {
        sale.without_contact()
    })
}

/// Sales at the counter: `store.sales()`.
pub struct Sales<'s>(pub(super) &'s Store);

impl<'s> Sales<'s> {
    /// Sales matching `query`, newest first.
    pub fn list(&self, query: SaleQuery) -> Call<'s, Paged<Sale>> {
        let pages = self.0.pages();
        Call::read(self.0, move |c| list(c, &pages, &query))
    }

    /// The sale, or `not_found`.
    pub fn get(&self, id: i64) -> Call<'s, Sale> {
        Call::read(self.0, move |c| require(c, id))
    }

    /// Records a sale, made `by` the named key; the answer shows the customer's contact
    /// only with `contact`.
    pub fn place(&self, new: NewSale, by: Option<String>, contact: bool) -> Call<'s, Sale> {
        Call::write(self.0, move |tx| place(tx, new, by.as_deref(), contact)).changing_many_pages()
    }
}
