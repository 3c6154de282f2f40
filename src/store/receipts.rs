//! What a sale's receipt prints, read in one snapshot: the store's profile, the sale and its
//! refunds, oldest first (the receipt itself is made in [`crate::domain::receipt`]).

use std::collections::HashMap;

use super::db::{Connection, DbResult};
use super::{profile, sales, Call, Result, Store, StoreError};
use crate::domain::payment::Method;
use crate::domain::receipt::{self, Receipt};
use crate::domain::refund::{Refund, RefundLine};

/// The refunds of sale `sale_id` with their lines, oldest first.
pub(super) fn refunds_of(conn: &Connection, sale_id: i64) -> Result<Vec<Refund>> {
    let mut lines: HashMap<i64, Vec<RefundLine>> = HashMap::new();
    let rows: Vec<(i64, RefundLine)> = conn
        .prepare_cached(
            "SELECT refund_id, pet_id, quantity, amount, tax FROM refund_lines
             WHERE sale_id = ?1 ORDER BY refund_id, line",
        )?
        .query_map([sale_id], |row| {
            Ok((
                row.get(0)?,
                RefundLine {
                    pet_id: row.get(1)?,
                    quantity: row.get(2)?,
                    amount: row.get(3)?,
                    tax: row.get(4)?,
                },
            ))
        })?
        .collect::<DbResult<_>>()?;
    for (refund_id, line) in rows {
        lines.entry(refund_id).or_default().push(line);
    }
    // `restock` is stored as 0 or 1 on both engines.
    type Head = (i64, String, i64, String, String, i64, Option<String>);
    let heads: Vec<(Head, Option<String>, Option<i64>)> = conn
        .prepare_cached(
            "SELECT id, created_at, amount, method, reason, restock, till, key_name, staff_id
             FROM refunds WHERE sale_id = ?1 ORDER BY id",
        )?
        .query_map([sale_id], |row| {
            Ok((
                (
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                    row.get(5)?,
                    row.get(6)?,
                ),
                row.get(7)?,
                row.get(8)?,
            ))
        })?
        .collect::<DbResult<_>>()?;
    heads
        .into_iter()
        .map(
            |((id, created_at, amount, method, reason, restock, till), key_name, staff_id)| {
                let method = Method::parse("method", &method).map_err(|_| {
                    StoreError::Internal(format!("a stored refund method {method:?}"))
                })?;
                Ok(Refund {
                    id,
                    sale_id,
                    created_at,
                    lines: lines.remove(&id).unwrap_or_default(),
                    amount,
                    method,
                    reason,
                    restock: restock != 0,
                    till,
                    key_name,
                    staff_id,
                })
            },
        )
        .collect()
}

fn receipt(conn: &Connection, sale_id: i64) -> Result<Receipt> {
    let sale = sales::require(conn, sale_id)?;
    let refunds = refunds_of(conn, sale_id)?;
    let profile = profile::get(conn)?;
    Ok(receipt::build(&profile, &sale, &refunds))
}

/// Sales' receipts: `store.receipts()`.
pub struct Receipts<'s>(pub(super) &'s Store);

impl<'s> Receipts<'s> {
    /// The receipt of sale `sale_id`, or `not_found`.
    pub fn get(&self, sale_id: i64) -> Call<'s, Receipt> {
        Call::read(self.0, move |c| receipt(c, sale_id))
    }
}
