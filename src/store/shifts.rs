//! Shifts of a till's cash drawer (the arithmetic is [`crate::domain::shift`], the record
//! [`crate::domain::shift_record`]).
//!
//! Guarantees:
//! - one open shift per till: opening checks for one (409 `shift_open`), and the partial
//!   unique index `shifts_one_open_per_till` refuses a second even from another process on
//!   PostgreSQL, which the store answers with the same 409;
//! - a sale or refund is attached, in its own transaction, to the shift open for its till at
//!   that moment ([`open_for`]), so a sale sent later by a till that was offline counts
//!   toward the shift open when it arrives;
//! - a shift's figures are read from what is attached to it; once it is closed nothing more
//!   is attached, so its Z report never changes. Closing is one compare-and-swap from
//!   `open` to `closed`: a second close is 409 `shift_closed`.

use std::collections::HashMap;
use std::sync::LazyLock;

use rusqlite::params;
use rusqlite::types::Value;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::pages::Pages;
use super::sql::{self, Filter, ListSql};
use super::{on_unique, Call, Result, Store, StoreError, Tx};
use crate::domain::payment::{Method, Payment};
use crate::domain::query::{Paged, ShiftQuery};
use crate::domain::shift::Tally;
use crate::domain::shift_record::{CountedCash, NewShift, Shift, ShiftHead, ShiftStatus};
use crate::domain::{time, DomainError};

const COLUMNS: &str = "id, till, status, opened_at, opened_by, opening_cash, closed_at, \
     closed_by, counted_cash";

/// The statement that reads one record by id, written out once (not on every read).
static BY_ID: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {COLUMNS} FROM shifts WHERE id = ?1"));

fn head_from_row(row: &Row<'_>) -> DbResult<ShiftHead> {
    let status: String = row.get(2)?;
    Ok(ShiftHead {
        id: row.get(0)?,
        till: row.get(1)?,
        status: if status == "closed" {
            ShiftStatus::Closed
        } else {
            ShiftStatus::Open
        },
        opened_at: row.get(3)?,
        opened_by: row.get(4)?,
        opening_cash: row.get(5)?,
        closed_at: row.get(6)?,
        closed_by: row.get(7)?,
        counted_cash: row.get(8)?,
    })
}

fn method(raw: &str) -> Result<Method> {
    Method::parse("method", raw)
        .map_err(|_| StoreError::Internal(format!("a stored payment method {raw:?}")))
}

/// What the sales and refunds attached to shift `id` add up to.
fn tally(conn: &Connection, id: i64) -> Result<Tally> {
    let mut payments: HashMap<i64, Vec<Payment>> = HashMap::new();
    let rows: Vec<(i64, String, i64)> = conn
        .prepare_cached(
            "SELECT p.sale_id, p.method, p.amount FROM sale_payments p
             JOIN sales s ON s.id = p.sale_id
             WHERE s.shift_id = ?1 ORDER BY p.sale_id, p.position",
        )?
        .query_map([id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<DbResult<_>>()?;
    for (sale_id, raw, amount) in rows {
        let method = method(&raw)?;
        payments
            .entry(sale_id)
            .or_default()
            .push(Payment { method, amount });
    }
    let mut tally = Tally::default();
    let sales: Vec<(i64, i64, i64, i64)> = conn
        .prepare_cached("SELECT id, total, tax, change FROM sales WHERE shift_id = ?1 ORDER BY id")?
        .query_map([id], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })?
        .collect::<DbResult<_>>()?;
    for (sale_id, total, tax, change) in sales {
        let paid = payments.remove(&sale_id).unwrap_or_default();
        tally.add_sale(total, tax, &paid, change);
    }
    let refunds: Vec<(String, i64)> = conn
        .prepare_cached("SELECT method, amount FROM refunds WHERE shift_id = ?1 ORDER BY id")?
        .query_map([id], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<DbResult<_>>()?;
    for (raw, amount) in refunds {
        tally.add_refund(method(&raw)?, amount);
    }
    Ok(tally)
}

fn shown(conn: &Connection, head: ShiftHead) -> Result<Shift> {
    let tally = tally(conn, head.id)?;
    Ok(Shift::new(head, &tally))
}

fn head(conn: &Connection, id: i64) -> Result<ShiftHead> {
    conn.prepare_cached(&BY_ID)?
        .query_row([id], head_from_row)
        .optional()?
        .ok_or(DomainError::NotFound { kind: "shift", id }.into())
}

fn require(conn: &Connection, id: i64) -> Result<Shift> {
    let head = head(conn, id)?;
    shown(conn, head)
}

/// The id of the shift open for `till` now, if it has one; a sale or refund without a till
/// belongs to no shift.
pub(super) fn open_for(conn: &Connection, till: Option<&str>) -> Result<Option<i64>> {
    let Some(till) = till else {
        return Ok(None);
    };
    Ok(conn
        .prepare_cached("SELECT id FROM shifts WHERE till = ?1 AND status = 'open'")?
        .query_row([till], |row| row.get(0))
        .optional()?)
}

/// Shifts matching `query`, newest first.
fn list(conn: &Connection, pages: &Pages, query: &ShiftQuery) -> Result<Paged<Shift>> {
    let mut filter = Filter::default();
    if let Some(till) = &query.till {
        filter.and("till = ?", [Value::Text(till.clone())]);
    }
    if let Some(status) = query.status {
        filter.and("status = ?", [Value::Text(status.as_str().into())]);
    }
    let list = ListSql {
        columns: COLUMNS,
        from: "shifts",
        order: "id DESC",
        key: Some(("id", true)),
        then_id: None,
        tables: &["shifts"],
    };
    let page = sql::paged(conn, pages, &list, &filter, query.page, head_from_row)?;
    let mut items = Vec::with_capacity(page.items.len());
    for head in page.items {
        items.push(shown(conn, head)?);
    }
    Ok(Paged {
        items,
        total: page.total,
    })
}

/// Opens a shift for a till that has none open.
fn open(tx: &mut Tx<'_>, new: NewShift, key_name: Option<&str>) -> Result<Shift> {
    let refused = || DomainError::ShiftOpen(new.till.clone());
    if open_for(tx, Some(&new.till))?.is_some() {
        return Err(refused().into());
    }
    let opened_at = time::now();
    let inserted = tx
        .prepare_cached(
            "INSERT INTO shifts (till, status, opened_at, opened_by, opening_cash)
             VALUES (?1, 'open', ?2, ?3, ?4)",
        )?
        .insert(params![new.till, opened_at, key_name, new.opening_cash]);
    let id = on_unique(inserted, refused)?;
    let shift = require(tx, id)?;
    tx.emit("shift.opened", &shift)?;
    Ok(shift)
}

/// Closes an open shift with the cash counted out of its drawer.
fn close(tx: &mut Tx<'_>, id: i64, counted: CountedCash, key_name: Option<&str>) -> Result<Shift> {
    head(tx, id)?.ensure_open()?;
    let changed = tx
        .prepare_cached(
            "UPDATE shifts SET status = 'closed', closed_at = ?2, closed_by = ?3, counted_cash = ?4
             WHERE id = ?1 AND status = 'open'",
        )?
        .execute(params![id, time::now(), key_name, counted.0])?;
    if changed == 0 {
        return Err(DomainError::ShiftClosed(id).into());
    }
    let shift = require(tx, id)?;
    tx.emit("shift.closed", &shift)?;
    Ok(shift)
}

/// Shifts of the tills' cash drawers: `store.shifts()`.
pub struct Shifts<'s>(pub(super) &'s Store);

impl<'s> Shifts<'s> {
    /// Shifts matching `query`, newest first.
    pub fn list(&self, query: ShiftQuery) -> Call<'s, Paged<Shift>> {
        let pages = self.0.pages();
        Call::read(self.0, move |c| list(c, &pages, &query))
    }

    /// The shift with its figures, or `not_found`.
    pub fn get(&self, id: i64) -> Call<'s, Shift> {
        Call::read(self.0, move |c| require(c, id))
    }

    /// Opens a shift, `by` the named key.
    pub fn open(&self, new: NewShift, by: Option<String>) -> Call<'s, Shift> {
        Call::write(self.0, move |tx| open(tx, new, by.as_deref()))
    }

    /// Closes a shift with its counted cash, `by` the named key.
    pub fn close(&self, id: i64, counted: CountedCash, by: Option<String>) -> Call<'s, Shift> {
        Call::write(self.0, move |tx| close(tx, id, counted, by.as_deref()))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::sync::{Arc, Barrier};

    use super::super::{Store, StoreError};
    use crate::domain::shift_record::NewShift;
    use crate::domain::DomainError;

    fn front(cash: i64) -> NewShift {
        NewShift {
            till: "Front".into(),
            opening_cash: cash,
        }
    }

    #[test]
    fn two_stores_opening_one_till_at_once_open_one_shift_and_refuse_the_rest_as_shift_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.sqlite");
        let stores = [Store::open(&path).unwrap(), Store::open(&path).unwrap()];
        let barrier = Arc::new(Barrier::new(8));
        let threads: Vec<_> = (0..8)
            .map(|n| {
                let (store, barrier) = (stores[n % 2].clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    store.shifts().open(front(n as i64), None).wait()
                })
            })
            .collect();
        let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
        for refused in results.iter().filter_map(|r| r.as_ref().err()) {
            assert!(
                matches!(refused, StoreError::Domain(DomainError::ShiftOpen(till)) if till == "Front"),
                "{refused:?}"
            );
        }
        for store in stores {
            store.close();
        }
    }

    #[test]
    fn the_database_itself_refuses_a_second_open_shift_for_a_till_but_not_a_closed_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.sqlite");
        let store = Store::open(&path).unwrap();
        store.shifts().open(front(0), None).wait().unwrap();
        store.close();
        let conn = rusqlite::Connection::open(&path).unwrap();
        let insert = |status: &str| {
            conn.execute(
                "INSERT INTO shifts (till, status, opened_at, opening_cash)
                 VALUES ('Front', ?1, '2026-01-01T00:00:00Z', 0)",
                [status],
            )
        };
        let err = insert("open").unwrap_err();
        assert_eq!(
            err.sqlite_error_code(),
            Some(rusqlite::ErrorCode::ConstraintViolation)
        );
        insert("closed").unwrap();
        insert("closed").unwrap();
    }
}
