//! Reads for the daily report: the orders placed, completed and cancelled in a range of
//! instants (the rules that turn them into days are in [`crate::domain::report`]).

use super::db::Connection;
use super::{profile, Call, Result, Store};
use crate::domain::report::{self, Activity, Day, Range};

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
