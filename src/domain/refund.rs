//! What a refund of part of a sale's line gives back: the exact-remainder rule.
//!
//! A line may be refunded up to what was sold and not yet refunded (`refund_exceeds_sale`
//! past it). Refunding `q` of the `Q` units sold gives back `total × q / Q`, rounded half away
//! from zero as tax is, and its tax is `tax × q / Q` the same way; except that the refund that
//! brings the line to fully refunded gives exactly what is left, so a line's refunds add up to
//! its total and its tax, to the unit.
//!
//! Rounding up several partial refunds could pass the line's total before the last unit (ten
//! units of a line of 5 cents give back 0.5 each, which rounds to 1): a partial refund never
//! gives more than is left, so the sums never pass the line's, and nothing is ever negative.
//!
//! Bounds: a line's total is at most 2 × 10¹² and its quantity at most 10⁴; the product is
//! taken in `i128`.
//!
//! The body of `POST /store/sales/{id}/refunds` is parsed here too: 1–100 lines, each pet
//! once, 1–10,000 units; a method; a reason of 1–200 characters; `restock` (default `true`);
//! the till (1–40 characters, default the sale's).

use serde::{Deserialize, Serialize};

use crate::contract::Bound;

use super::payment::Method;
use super::sale::{bounded_text, line_list, pet_and_quantity, TILL};
use super::tax::{div_round, narrow};
use super::{required, DomainError};

/// A sold line: its total, its tax and its units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SoldLine {
    pub total: i64,
    pub tax: i64,
    pub quantity: i64,
}

/// What a line's earlier refunds took back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Refunded {
    pub quantity: i64,
    pub amount: i64,
    pub tax: i64,
}

/// What one refund of a line gives back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    pub amount: i64,
    pub tax: i64,
}

/// More units asked back than were sold and not yet refunded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefundExceedsSale {
    /// Units that may still be refunded.
    pub left: i64,
    pub requested: i64,
}

/// The share of `line` that refunding `quantity` more units gives back, after `before`.
pub fn share(line: SoldLine, before: Refunded, quantity: i64) -> Result<Share, RefundExceedsSale> {
    let left = line.quantity - before.quantity;
    if quantity < 1 || quantity > left {
        return Err(RefundExceedsSale {
            left,
            requested: quantity,
        });
    }
    let amount_left = line.total - before.amount;
    let tax_left = line.tax - before.tax;
    if quantity == left {
        return Ok(Share {
            amount: amount_left,
            tax: tax_left,
        });
    }
    let part = |whole: i64, left_of_it: i64| {
        let share = narrow(div_round(
            i128::from(whole) * i128::from(quantity),
            i128::from(line.quantity),
        ));
        share.min(left_of_it).max(0)
    };
    Ok(Share {
        amount: part(line.total, amount_left),
        tax: part(line.tax, tax_left),
    })
}

/// Lines in one refund.
pub const REFUND_LINES: Bound = crate::contract::REFUND_LINES;
/// Characters of a refund's reason.
pub const REASON: Bound = crate::contract::REFUND_REASON;

/// The body of `POST /store/sales/{id}/refunds` as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RefundInput {
    pub lines: Option<Vec<RefundLineInput>>,
    pub method: Option<String>,
    pub reason: Option<String>,
    /// Absent is `None`; `null` is `Some(None)`, refused: a flag is true or false.
    #[serde(default, deserialize_with = "super::double_option")]
    pub restock: Option<Option<bool>>,
    pub till: Option<String>,
}

/// One line of a refund as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RefundLineInput {
    pub pet_id: Option<i64>,
    pub quantity: Option<i64>,
}

/// A line to refund: units of the sale's line of this pet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewRefundLine {
    pub pet_id: i64,
    pub quantity: i64,
}

/// A validated refund.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRefund {
    pub lines: Vec<NewRefundLine>,
    pub method: Method,
    pub reason: String,
    /// Put the units back in stock (default `true`).
    pub restock: bool,
    /// The till paying it out; `None`: the sale's.
    pub till: Option<String>,
}

impl TryFrom<RefundInput> for NewRefund {
    type Error = DomainError;

    fn try_from(input: RefundInput) -> Result<Self, DomainError> {
        let raw = line_list(input.lines, REFUND_LINES)?;
        let mut lines: Vec<NewRefundLine> = Vec::with_capacity(raw.len());
        for (i, line) in raw.into_iter().enumerate() {
            let (pet_id, quantity) = pet_and_quantity(
                i,
                line.pet_id,
                line.quantity,
                |id| lines.iter().any(|l| l.pet_id == id),
                "",
            )?;
            lines.push(NewRefundLine { pet_id, quantity });
        }
        let method = required("method", input.method)?;
        let reason = bounded_text("reason", input.reason.as_deref(), REASON)?.ok_or_else(|| {
            let (min, max) = (REASON.min, REASON.max);
            DomainError::invalid("reason", format!("is required ({min} to {max} characters)"))
        })?;
        let till = match input.till.as_deref() {
            None => None,
            Some(raw) => Some(
                bounded_text("till", Some(raw), TILL)?
                    .ok_or_else(|| DomainError::invalid("till", "must not be empty"))?,
            ),
        };
        Ok(Self {
            lines,
            method: Method::parse("method", &method)?,
            reason,
            restock: match input.restock {
                None => true,
                Some(Some(restock)) => restock,
                Some(None) => {
                    return Err(DomainError::invalid(
                        "restock",
                        "must be true or false, not null (leave it out for true)",
                    ))
                }
            },
            till,
        })
    }
}

/// A line of a refund as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RefundLine {
    pub pet_id: i64,
    pub quantity: i64,
    pub amount: i64,
    pub tax: i64,
}

/// A refund as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Refund {
    pub id: i64,
    pub sale_id: i64,
    pub created_at: String,
    pub lines: Vec<RefundLine>,
    pub amount: i64,
    pub method: Method,
    pub reason: String,
    pub restock: bool,
    pub till: Option<String>,
    pub key_name: Option<String>,
    pub staff_id: Option<i64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ((total, tax, sold), the units refunded in turn, each refund's (amount, tax)).
    type Case = ((i64, i64, i64), &'static [i64], &'static [(i64, i64)]);

    fn sold(total: i64, tax: i64, quantity: i64) -> SoldLine {
        SoldLine {
            total,
            tax,
            quantity,
        }
    }

    /// Refunds `steps` in turn and returns each share.
    fn refunds(line: SoldLine, steps: &[i64]) -> Vec<(i64, i64)> {
        let mut before = Refunded::default();
        steps
            .iter()
            .map(|&q| {
                let got = share(line, before, q).unwrap();
                before.quantity += q;
                before.amount += got.amount;
                before.tax += got.tax;
                (got.amount, got.tax)
            })
            .collect()
    }

    /// (total, tax, sold) and the units refunded in turn → each refund's (amount, tax).
    #[test]
    fn partial_refunds_give_the_rounded_share_and_the_last_gives_what_is_left() {
        let cases: &[Case] = &[
            ((1_000, 200, 1), &[1], &[(1_000, 200)]),
            (
                (1_000, 167, 3),
                &[1, 1, 1],
                &[(333, 56), (333, 56), (334, 55)],
            ),
            ((1_000, 167, 3), &[2, 1], &[(667, 111), (333, 56)]),
            ((1_000, 167, 3), &[3], &[(1_000, 167)]),
            // 0.5 of a unit rounds away from zero
            ((3, 1, 2), &[1, 1], &[(2, 1), (1, 0)]),
            ((2_001, 0, 2), &[1, 1], &[(1_001, 0), (1_000, 0)]),
            // a line given away refunds nothing, whatever the steps
            ((0, 0, 4), &[1, 3], &[(0, 0), (0, 0)]),
            // no tax
            ((999, 0, 9), &[4, 5], &[(444, 0), (555, 0)]),
        ];
        for &((total, tax, quantity), steps, want) in cases {
            assert_eq!(
                refunds(sold(total, tax, quantity), steps),
                want,
                "{total} (tax {tax}) of {quantity} refunded as {steps:?}"
            );
        }
    }

    #[test]
    fn a_line_s_refunds_add_up_to_its_total_and_tax_however_it_is_split() {
        let line = sold(1_001, 143, 7);
        for steps in [
            vec![1; 7],
            vec![3, 4],
            vec![6, 1],
            vec![1, 2, 1, 2, 1],
            vec![7],
        ] {
            let got = refunds(line, &steps);
            let amount: i64 = got.iter().map(|g| g.0).sum();
            let tax: i64 = got.iter().map(|g| g.1).sum();
            assert_eq!((amount, tax), (1_001, 143), "{steps:?}");
        }
    }

    /// Ten refunds of half a cent each would round to ten cents of a five-cent line.
    #[test]
    fn rounded_up_partial_refunds_never_pass_the_line_s_total() {
        let line = sold(5, 1, 10);
        let got = refunds(line, &[1; 10]);
        let mut running = 0;
        for (amount, tax) in &got {
            assert!(*amount >= 0 && *tax >= 0);
            running += amount;
            assert!(running <= 5);
        }
        assert_eq!(running, 5);
        assert_eq!(got.iter().map(|g| g.1).sum::<i64>(), 1);
    }

    #[test]
    fn refunding_more_than_is_left_is_refused() {
        let line = sold(1_000, 0, 3);
        let before = Refunded {
            quantity: 2,
            amount: 667,
            tax: 0,
        };
        assert_eq!(
            share(line, before, 2),
            Err(RefundExceedsSale {
                left: 1,
                requested: 2
            })
        );
        let all = Refunded {
            quantity: 3,
            amount: 1_000,
            tax: 0,
        };
        assert!(share(line, all, 1).is_err());
        assert!(share(line, Refunded::default(), 4).is_err());
        assert!(share(line, Refunded::default(), 0).is_err());
    }

    #[test]
    fn the_largest_line_the_bounds_allow_refunds_without_overflow() {
        let line = sold(2_000_000_000_000, 1_000_000_000_000, 10_000);
        assert_eq!(
            share(line, Refunded::default(), 9_999),
            Ok(Share {
                amount: 1_999_800_000_000,
                tax: 999_900_000_000
            })
        );
        let got = refunds(line, &[3_333, 3_333, 3_334]);
        assert_eq!(got.iter().map(|g| g.0).sum::<i64>(), 2_000_000_000_000);
    }
}
