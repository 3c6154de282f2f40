//! A till's shift as the interface shows it, and the bodies that open and close one.
//!
//! `POST /store/shifts` takes `{till, openingCash}` (the till's name, 1–40 characters as a
//! sale's; cash 0 to [`CASH`]`.max`), `POST /store/shifts/{id}/close` takes `{countedCash}`
//! (the same bounds). A shift is the Z report: its figures come from [`Tally`], `expectedCash`
//! runs while it is open, and `countedCash`, `difference`, `closedAt` and `closedBy` are
//! `null` until it closes.

use serde::{Deserialize, Serialize};

use super::sale::{bounded_text, TILL};
use super::shift::{difference, RefundsTally, SalesTally, Tally, CASH};
use super::{required, DomainError};

/// Whether a shift's drawer is still in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShiftStatus {
    Open,
    Closed,
}

impl ShiftStatus {
    /// The status as the interface (and the store) writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Closed => "closed",
        }
    }

    /// Parses a status as sent; anything else is refused naming `field`.
    pub fn parse(field: &str, raw: &str) -> Result<Self, DomainError> {
        match raw {
            "open" => Ok(Self::Open),
            "closed" => Ok(Self::Closed),
            _ => Err(DomainError::invalid(field, "must be open or closed")),
        }
    }
}

/// The body of `POST /store/shifts` as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ShiftInput {
    pub till: Option<String>,
    pub opening_cash: Option<i64>,
}

/// A validated shift to open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewShift {
    /// The till's name, trimmed.
    pub till: String,
    pub opening_cash: i64,
}

impl TryFrom<ShiftInput> for NewShift {
    type Error = DomainError;

    fn try_from(input: ShiftInput) -> Result<Self, DomainError> {
        let till = required("till", input.till)?;
        let till = bounded_text("till", Some(&till), TILL)?
            .ok_or_else(|| DomainError::invalid("till", "must not be empty"))?;
        Ok(Self {
            till,
            opening_cash: cash("openingCash", input.opening_cash)?,
        })
    }
}

/// The body of `POST /store/shifts/{id}/close` as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CloseInput {
    pub counted_cash: Option<i64>,
}

/// The cash counted out of a drawer at its close, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountedCash(pub i64);

impl TryFrom<CloseInput> for CountedCash {
    type Error = DomainError;

    fn try_from(input: CloseInput) -> Result<Self, DomainError> {
        cash("countedCash", input.counted_cash).map(Self)
    }
}

fn cash(field: &str, amount: Option<i64>) -> Result<i64, DomainError> {
    let amount = required(field, amount)?;
    if CASH.contains(amount) {
        Ok(amount)
    } else {
        Err(DomainError::invalid(
            field,
            format!("must be between {} and {}", CASH.min, CASH.max),
        ))
    }
}

/// A shift as stored: who opened and closed it, and the cash counted in and out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShiftHead {
    pub id: i64,
    pub till: String,
    pub status: ShiftStatus,
    pub opened_at: String,
    pub opened_by: Option<String>,
    pub opening_cash: i64,
    pub closed_at: Option<String>,
    pub closed_by: Option<String>,
    pub counted_cash: Option<i64>,
}

/// A shift as the interface shows it: the Z report once it is closed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Shift {
    pub id: i64,
    pub till: String,
    pub status: ShiftStatus,
    pub opened_at: String,
    pub opened_by: Option<String>,
    pub opening_cash: i64,
    pub closed_at: Option<String>,
    pub closed_by: Option<String>,
    pub expected_cash: i64,
    pub counted_cash: Option<i64>,
    pub difference: Option<i64>,
    pub sales: SalesTally,
    pub refunds: RefundsTally,
}

impl Shift {
    /// The shift `head` with the figures of what was attached to it.
    pub fn new(head: ShiftHead, tally: &Tally) -> Self {
        let expected_cash = tally.expected_cash(head.opening_cash);
        Self {
            id: head.id,
            till: head.till,
            status: head.status,
            opened_at: head.opened_at,
            opened_by: head.opened_by,
            opening_cash: head.opening_cash,
            closed_at: head.closed_at,
            closed_by: head.closed_by,
            expected_cash,
            counted_cash: head.counted_cash,
            difference: head
                .counted_cash
                .map(|counted| difference(counted, expected_cash)),
            sales: tally.sales,
            refunds: tally.refunds,
        }
    }
}

impl ShiftHead {
    /// Only an open shift may be closed.
    pub fn ensure_open(&self) -> Result<(), DomainError> {
        match self.status {
            ShiftStatus::Open => Ok(()),
            ShiftStatus::Closed => Err(DomainError::ShiftClosed(self.id)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::payment::{Method, Payment};

    fn opening(till: Option<&str>, cash: Option<i64>) -> Result<NewShift, DomainError> {
        NewShift::try_from(ShiftInput {
            till: till.map(str::to_owned),
            opening_cash: cash,
        })
    }

    fn field(result: Result<NewShift, DomainError>) -> String {
        match result {
            Err(DomainError::Validation { field, .. }) => field,
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    #[test]
    fn a_shift_opens_with_a_trimmed_till_and_cash_within_its_bounds() {
        let new = opening(Some("  Front "), Some(0)).unwrap();
        assert_eq!((new.till.as_str(), new.opening_cash), ("Front", 0));
        let most = "t".repeat(TILL.max_usize());
        assert_eq!(
            opening(Some(&most), Some(CASH.max)).unwrap().opening_cash,
            CASH.max
        );
    }

    #[test]
    fn a_missing_empty_or_long_till_and_cash_out_of_bounds_are_refused_by_name() {
        assert_eq!(field(opening(None, Some(0))), "till");
        assert_eq!(field(opening(Some("   "), Some(0))), "till");
        let long = "t".repeat(TILL.max_usize() + 1);
        assert_eq!(field(opening(Some(&long), Some(0))), "till");
        assert_eq!(field(opening(Some("Front"), None)), "openingCash");
        assert_eq!(field(opening(Some("Front"), Some(-1))), "openingCash");
        assert_eq!(
            field(opening(Some("Front"), Some(CASH.max + 1))),
            "openingCash"
        );
        let close = |cash| CountedCash::try_from(CloseInput { counted_cash: cash });
        assert!(close(None).is_err() && close(Some(-1)).is_err());
        assert!(close(Some(CASH.max + 1)).is_err());
        assert_eq!(close(Some(CASH.max)).unwrap(), CountedCash(CASH.max));
    }

    fn head(status: ShiftStatus, counted: Option<i64>) -> ShiftHead {
        ShiftHead {
            id: 3,
            till: "Front".into(),
            status,
            opened_at: "2026-01-05T08:00:00Z".into(),
            opened_by: Some("Ann".into()),
            opening_cash: 10_000,
            closed_at: None,
            closed_by: None,
            counted_cash: counted,
        }
    }

    #[test]
    fn an_open_shift_shows_its_running_expected_cash_and_no_difference() {
        let mut tally = Tally::default();
        let cash = [Payment {
            method: Method::Cash,
            amount: 2_000,
        }];
        tally.add_sale(1_500, 0, &cash, 500);
        let shift = Shift::new(head(ShiftStatus::Open, None), &tally);
        assert_eq!(shift.expected_cash, 11_500);
        assert_eq!((shift.counted_cash, shift.difference), (None, None));
        let closed = Shift::new(head(ShiftStatus::Closed, Some(11_300)), &tally);
        assert_eq!(closed.difference, Some(-200));
    }

    #[test]
    fn only_an_open_shift_may_close() {
        assert!(head(ShiftStatus::Open, None).ensure_open().is_ok());
        assert_eq!(
            head(ShiftStatus::Closed, Some(0)).ensure_open(),
            Err(DomainError::ShiftClosed(3))
        );
    }
}
