//! Refunds of sales: money back for part of a sale's lines, and (by default) the units back
//! in stock, in one transaction (the exact-remainder rule lives in
//! [`crate::domain::refund`]).
//!
//! Guarantees: a line is never refunded past what was sold (409 `refund_exceeds_sale`, the
//! refusal naming the request's line); a line's refunds add up to its total and its tax, to
//! the unit; restocking is refused like a cancel past the most a shop can hold (409
//! `conflict`), and then nothing of the refund is kept; the sale's `refunded` is the sum of
//! its refunds; a refund counts toward the shift open for its till (by default the sale's)
//! when it is written.

use rusqlite::params;

use super::inventory::{self, Cause};
use super::{pets, receipts, sales, shifts, Call, Result, Store, Tx};
use crate::domain::inventory::Source;
use crate::domain::order;
use crate::domain::pet::PetStatus;
use crate::domain::refund::{self, NewRefund, Refund, RefundLine, Refunded, SoldLine};
use crate::domain::{time, DomainError};

/// What earlier refunds took back of the sale's line of `pet_id`.
fn refunded_before(tx: &Tx<'_>, sale_id: i64, pet_id: i64) -> Result<Refunded> {
    Ok(tx
        .prepare_cached(
            "SELECT CAST(COALESCE(SUM(quantity), 0) AS BIGINT),
                    CAST(COALESCE(SUM(amount), 0) AS BIGINT),
                    CAST(COALESCE(SUM(tax), 0) AS BIGINT)
             FROM refund_lines WHERE sale_id = ?1 AND pet_id = ?2",
        )?
        .query_row(params![sale_id, pet_id], |row| {
            Ok(Refunded {
                quantity: row.get(0)?,
                amount: row.get(1)?,
                tax: row.get(2)?,
            })
        })?)
}

/// Refunds part of sale `sale_id`, made `by` the named key.
fn refund(tx: &mut Tx<'_>, sale_id: i64, new: NewRefund, key_name: Option<&str>) -> Result<Refund> {
    let sale = sales::require(tx, sale_id)?;
    let mut lines = Vec::with_capacity(new.lines.len());
    for (index, asked) in new.lines.iter().enumerate() {
        let exceeds = |left: i64| {
            DomainError::RefundExceedsSale {
                pet_id: asked.pet_id,
                left,
                requested: asked.quantity,
            }
            .at_line(index)
        };
        let Some(sold) = sale.lines.iter().find(|l| l.pet_id == asked.pet_id) else {
            return Err(exceeds(0).into());
        };
        let before = refunded_before(tx, sale_id, asked.pet_id)?;
        let line = SoldLine {
            total: sold.total,
            tax: sold.tax,
            quantity: sold.quantity,
        };
        let share = refund::share(line, before, asked.quantity).map_err(|e| exceeds(e.left))?;
        lines.push((
            sold.order_id,
            RefundLine {
                pet_id: asked.pet_id,
                quantity: asked.quantity,
                amount: share.amount,
                tax: share.tax,
            },
        ));
    }
    let amount: i64 = lines.iter().map(|(_, l)| l.amount).sum();
    let tax: i64 = lines.iter().map(|(_, l)| l.tax).sum();
    let created_at = time::now();
    let till = new.till.clone().or(sale.till.clone());
    let staff_id = tx.member().map(|member| member.id);
    let shift_id = shifts::open_for(tx, till.as_deref())?;
    let id = tx
        .prepare_cached(
            "INSERT INTO refunds (sale_id, created_at, amount, tax, method, reason, restock, till,
                 key_name, staff_id, shift_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?
        .insert(params![
            sale_id,
            created_at,
            amount,
            tax,
            new.method.as_str(),
            new.reason,
            new.restock,
            till,
            key_name,
            staff_id,
            shift_id
        ])?;
    for (index, (order_id, line)) in lines.iter().enumerate() {
        tx.prepare_cached(
            "INSERT INTO refund_lines (refund_id, line, sale_id, pet_id, quantity, amount, tax)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(params![
            id,
            index as i64,
            sale_id,
            line.pet_id,
            line.quantity,
            line.amount,
            line.tax
        ])?;
        if new.restock {
            restock(tx, line, *order_id, &new.reason, key_name, index)?;
        }
    }
    tx.prepare_cached("UPDATE sales SET refunded = refunded + ?2 WHERE id = ?1")?
        .execute(params![sale_id, amount])?;
    let refund = Refund {
        id,
        sale_id,
        created_at,
        lines: lines.into_iter().map(|(_, line)| line).collect(),
        amount,
        method: new.method,
        reason: new.reason,
        restock: new.restock,
        till,
        key_name: key_name.map(str::to_owned),
        staff_id,
    };
    tx.emit("sale.refunded", &refund)?;
    Ok(refund)
}

/// Puts a refunded line's units back in stock (history source `refund`, naming the line's
/// order). A pet the sale left `pending` or `sold` is `available` again, as after a cancel.
/// A pet deleted since the sale has no stock to go back to: nothing moves.
fn restock(
    tx: &mut Tx<'_>,
    line: &RefundLine,
    order_id: i64,
    reason: &str,
    key_name: Option<&str>,
    index: usize,
) -> Result<()> {
    let Some(pet) = pets::get(tx, line.pet_id)? else {
        return Ok(());
    };
    let cause = Cause {
        source: Source::Refund,
        reason: Some(reason),
        order_id: Some(order_id),
        key_name,
    };
    if inventory::shift(tx, pet.id, line.quantity, cause)?.is_none() {
        return Err(DomainError::Conflict(format!(
            "putting {} units back would take pet {}'s stock above the most a shop can hold; \
             refund without restock",
            line.quantity, pet.id
        ))
        .at_line(index)
        .into());
    }
    let status = match pet.status {
        Some(PetStatus::Sold) => Some(PetStatus::Available),
        other => order::status_after_cancel(other),
    };
    if status != pet.status {
        pets::set_status(tx, &pet, status)?;
        inventory::announce(tx, pet.id)?;
    }
    Ok(())
}

/// Refunds of sales: `store.refunds()`.
pub struct Refunds<'s>(pub(super) &'s Store);

impl<'s> Refunds<'s> {
    /// Refunds part of a sale, made `by` the named key.
    pub fn create(&self, sale_id: i64, new: NewRefund, by: Option<String>) -> Call<'s, Refund> {
        Call::write(self.0, move |tx| refund(tx, sale_id, new, by.as_deref())).changing_many_pages()
    }

    /// The refunds of sale `sale_id`, oldest first, read in one snapshot; `not_found` when
    /// there is no such sale.
    pub fn of_sale(&self, sale_id: i64) -> Call<'s, Vec<Refund>> {
        Call::read(self.0, move |c| {
            sales::require(c, sale_id)?;
            receipts::refunds_of(c, sale_id)
        })
    }
}
