//! Reads for the daily report: the orders placed, completed and cancelled, the sales made
//! (by `soldAt`) and the refunds made in a range of instants (the rules that turn them into
//! days are in [`crate::domain::report`]).

use std::collections::HashMap;

use super::db::{Connection, DbResult};
use super::{profile, Call, Result, Store, StoreError};
use crate::domain::payment::{ByMethod, Method, Payment};
use crate::domain::report::{self, Activity, Day, Range};

fn method(raw: &str) -> Result<Method> {
    Method::parse("method", raw)
        .map_err(|_| StoreError::Internal(format!("a stored payment method {raw:?}")))
}

/// The sales made (by `soldAt`) and the refunds made between `start` and `end`.
fn counter(conn: &Connection, start: &str, end: &str, activity: &mut Activity) -> Result<()> {
    let mut paid: HashMap<i64, Vec<Payment>> = HashMap::new();
    let rows: Vec<(i64, String, i64)> = conn
        .prepare_cached(
            "SELECT p.sale_id, p.method, p.amount FROM sale_payments p
             JOIN sales s ON s.id = p.sale_id
             WHERE s.sold_at >= ?1 AND s.sold_at < ?2",
        )?
        .query_map([start, end], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })?
        .collect::<DbResult<_>>()?;
    for (sale_id, raw, amount) in rows {
        let method = method(&raw)?;
        paid.entry(sale_id)
            .or_default()
            .push(Payment { method, amount });
    }
    let sales: Vec<(i64, String, i64, i64)> = conn
        .prepare_cached(
            "SELECT id, sold_at, tax, change FROM sales WHERE sold_at >= ?1 AND sold_at < ?2",
        )?
        .query_map([start, end], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })?
        .collect::<DbResult<_>>()?;
    for (id, sold_at, tax, change) in sales {
        let payments = paid.remove(&id).unwrap_or_default();
        activity
            .sales
            .push((sold_at, tax, ByMethod::taken(&payments, change)));
    }
    let refunds: Vec<(String, i64, i64, String)> = conn
        .prepare_cached(
            "SELECT created_at, amount, tax, method FROM refunds
             WHERE created_at >= ?1 AND created_at < ?2",
        )?
        .query_map([start, end], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })?
        .collect::<DbResult<_>>()?;
    for (created_at, amount, tax, raw) in refunds {
        activity
            .refunds
            .push((created_at, amount, tax, method(&raw)?));
    }
    Ok(())
}

/// The daily report for `range`, in the store's time zone.
fn daily(conn: &Connection, range: Range) -> Result<Vec<Day>> {
    let tz = profile::get(conn)?.tz();
    let (start, end) = range.utc_bounds(tz);
    let mut activity = Activity::default();
    let mut stmt = conn.prepare_cached(
        "SELECT created_at, quantity, unit_price * quantity, completed_at FROM orders
         WHERE (created_at >= ?1 AND created_at < ?2) OR (completed_at >= ?1 AND completed_at < ?2)",
    )?;
    let rows = stmt.query_map([&start, &end], |row| {
        Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
    })?;
    for row in rows {
        activity.orders.push(row?);
    }
    let mut stmt = conn.prepare_cached(
        "SELECT placed_at, cancelled_at FROM cancelled_orders
         WHERE (placed_at >= ?1 AND placed_at < ?2) OR (cancelled_at >= ?1 AND cancelled_at < ?2)",
    )?;
    let rows = stmt.query_map([&start, &end], |row| Ok((row.get(0)?, row.get(1)?)))?;
    for row in rows {
        activity.cancelled.push(row?);
    }
    counter(conn, &start, &end, &mut activity)?;
    Ok(report::daily(range, tz, &activity))
}

/// Reports: `store.reports()`.
pub struct Reports<'s>(pub(super) &'s Store);

impl<'s> Reports<'s> {
    /// The daily report for `range` of local days of the store's time zone.
    pub fn daily(&self, range: Range) -> Call<'s, Vec<Day>> {
        Call::read(self.0, move |c| daily(c, range))
    }
}
