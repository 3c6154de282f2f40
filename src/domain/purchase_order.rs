//! Purchase orders: what the shop asks a supplier for, and what arrives. The rules of their
//! lifecycle live here, free of HTTP and SQL:
//!
//! - `draft` → `sent` (send) → `partial` / `received` (receive); `draft` or `sent` with
//!   nothing received → `cancelled`. `received` and `cancelled` are closed: any change is
//!   `purchase_order_closed`.
//! - Only a draft's lines change; a `partial` order cannot be cancelled (`conflict`).
//! - A receipt never takes a line past what was ordered (`over_receipt`).
//! - `suggest` orders a low pet's `reorderQuantity`, else `max(1, 2 × reorderPoint − stock)`.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::pet::positive_id;
use super::sale::bounded_text;
use super::{code, required, DomainError};
use crate::contract::{Bound, REORDER_QUANTITY};

/// Lines in one purchase order.
pub const LINES: Bound = crate::contract::PURCHASE_LINES;
/// Units of one line ordered, or received at once.
pub const UNITS: Bound = REORDER_QUANTITY;
/// Characters of a purchase order's note.
pub const NOTE: Bound = crate::contract::PURCHASE_NOTE;

/// Where a purchase order is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Draft,
    Sent,
    Partial,
    Received,
    Cancelled,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Self::Draft,
        Self::Sent,
        Self::Partial,
        Self::Received,
        Self::Cancelled,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Sent => "sent",
            Self::Partial => "partial",
            Self::Received => "received",
            Self::Cancelled => "cancelled",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == raw)
    }

    /// Whether the order is closed: received in full, or cancelled.
    pub fn closed(self) -> bool {
        matches!(self, Self::Received | Self::Cancelled)
    }

    /// Refuses any change to a closed order.
    fn open(self, id: i64) -> Result<(), DomainError> {
        if self.closed() {
            Err(DomainError::PurchaseOrderClosed {
                id,
                status: self.as_str(),
            })
        } else {
            Ok(())
        }
    }

    /// Refuses any change to a closed order, then one this status does not `allow`, as a
    /// conflict saying `why`.
    fn check(self, id: i64, allow: bool, why: impl FnOnce() -> String) -> Result<(), DomainError> {
        self.open(id)?;
        if allow {
            Ok(())
        } else {
            Err(DomainError::Conflict(why()))
        }
    }

    /// Whether a draft's lines may be replaced.
    pub fn check_edit(self, id: i64) -> Result<(), DomainError> {
        self.check(id, self == Self::Draft, || {
            format!(
                "purchase order {id} is {}: only a draft's lines change",
                self.as_str()
            )
        })
    }

    /// Whether the order may be sent (only a draft).
    pub fn check_send(self, id: i64) -> Result<(), DomainError> {
        self.check(id, self == Self::Draft, || {
            format!("purchase order {id} is already {}", self.as_str())
        })
    }

    /// Whether units may be received (a sent or partly received order).
    pub fn check_receive(self, id: i64) -> Result<(), DomainError> {
        self.check(id, self != Self::Draft, || {
            format!("purchase order {id} is a draft: send it before receiving")
        })
    }

    /// Whether the order may be cancelled (a draft, or sent with nothing received).
    pub fn check_cancel(self, id: i64) -> Result<(), DomainError> {
        self.check(id, self != Self::Partial, || {
            format!("purchase order {id} is partly received and cannot be cancelled")
        })
    }
}

/// One line of a purchase order as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    pub pet_id: i64,
    pub ordered: i64,
    pub received: i64,
    pub cost: i64,
}

/// A purchase order as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseOrder {
    pub id: i64,
    pub number: i64,
    pub supplier_id: i64,
    pub status: Status,
    pub lines: Vec<Line>,
    /// The sum of `ordered × cost`.
    pub total: i64,
    pub note: Option<String>,
    pub created_at: String,
    pub sent_at: Option<String>,
    pub closed_at: Option<String>,
}

/// What `GET /store/purchase-orders` lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PurchaseOrderQuery {
    pub status: Option<Status>,
    pub supplier_id: Option<i64>,
    pub page: super::query::Page,
}

/// The sum of `ordered × cost` over `lines`.
pub fn total(lines: &[Line]) -> i64 {
    lines
        .iter()
        .map(|l| l.ordered.saturating_mul(l.cost))
        .fold(0, i64::saturating_add)
}

/// The status once a receipt is in: `received` when every line is, else `partial`.
pub fn status_after_receipt(lines: &[Line]) -> Status {
    if lines.iter().all(|l| l.received >= l.ordered) {
        Status::Received
    } else {
        Status::Partial
    }
}

/// Units to order of a low pet: its `reorderQuantity`, else `max(1, 2 × reorderPoint − stock)`.
pub fn suggested_units(reorder_quantity: Option<i64>, reorder_point: i64, stock: i64) -> i64 {
    reorder_quantity
        .unwrap_or_else(|| (2 * reorder_point - stock).max(1))
        .clamp(UNITS.min, UNITS.max)
}

/// A line of `POST /store/purchase-orders` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LineInput {
    pub pet_id: Option<i64>,
    pub quantity: Option<i64>,
    #[serde(default)]
    pub cost: Option<serde_json::Value>,
}

/// The body of `POST /store/purchase-orders` and `PUT /store/purchase-orders/{id}` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PurchaseOrderInput {
    pub supplier_id: Option<i64>,
    pub lines: Option<Vec<LineInput>>,
    pub note: Option<String>,
}

/// A validated line to order: `cost` `None` takes the pet's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLine {
    pub pet_id: i64,
    pub quantity: i64,
    pub cost: Option<i64>,
}

/// A validated purchase order (new, or the whole replacement of a draft).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPurchaseOrder {
    pub supplier_id: i64,
    pub lines: Vec<NewLine>,
    pub note: Option<String>,
}

fn units(field: &str, raw: Option<i64>) -> Result<i64, DomainError> {
    match raw {
        None => Err(DomainError::invalid(field, "is required")),
        Some(n) if UNITS.contains(n) => Ok(n),
        Some(_) => Err(DomainError::invalid(
            field,
            format!("must be from {} to {}", UNITS.min, UNITS.max),
        )),
    }
}

fn lines_len(len: usize) -> Result<(), DomainError> {
    if LINES.contains(len as i64) {
        Ok(())
    } else {
        Err(DomainError::invalid(
            "lines",
            format!("must have {} to {} lines", LINES.min, LINES.max),
        ))
    }
}

/// Each pet at most once among `pets`.
fn once_each(pets: impl Iterator<Item = i64>) -> Result<(), DomainError> {
    let mut seen = HashSet::new();
    for (i, pet) in pets.enumerate() {
        if !seen.insert(pet) {
            return Err(DomainError::invalid(
                &format!("lines[{i}].petId"),
                format!("pet {pet} is already on another line"),
            ));
        }
    }
    Ok(())
}

impl TryFrom<PurchaseOrderInput> for NewPurchaseOrder {
    type Error = DomainError;

    fn try_from(input: PurchaseOrderInput) -> Result<Self, DomainError> {
        let supplier_id = required("supplierId", input.supplier_id)?;
        let supplier_id = positive_id("supplierId", supplier_id)?;
        let raw = required("lines", input.lines)?;
        lines_len(raw.len())?;
        let mut lines = Vec::with_capacity(raw.len());
        for (i, line) in raw.into_iter().enumerate() {
            let field = |name: &str| format!("lines[{i}].{name}");
            let pet_id = line
                .pet_id
                .ok_or_else(|| DomainError::invalid(&field("petId"), "is required"))?;
            let cost = match line.cost {
                None | Some(serde_json::Value::Null) => None,
                Some(serde_json::Value::Number(n)) => Some(
                    n.as_i64()
                        .ok_or_else(|| {
                            DomainError::invalid(
                                &field("cost"),
                                "must be a whole number of minor units",
                            )
                        })
                        .and_then(|v| code::price(&field("cost"), v))?,
                ),
                Some(_) => {
                    return Err(DomainError::invalid(
                        &field("cost"),
                        "must be a whole number of minor units",
                    ))
                }
            };
            lines.push(NewLine {
                pet_id: positive_id(&field("petId"), pet_id)?,
                quantity: units(&field("quantity"), line.quantity)?,
                cost,
            });
        }
        once_each(lines.iter().map(|l| l.pet_id))?;
        Ok(Self {
            supplier_id,
            lines,
            note: bounded_text("note", input.note.as_deref(), NOTE)?,
        })
    }
}

/// The body of `POST /store/purchase-orders/suggest` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SuggestInput {
    pub supplier_id: Option<i64>,
}

impl SuggestInput {
    /// The supplier to suggest an order for.
    pub fn supplier(&self) -> Result<i64, DomainError> {
        let id = required("supplierId", self.supplier_id)?;
        positive_id("supplierId", id)
    }
}

/// A line of a receipt as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReceiptLineInput {
    pub pet_id: Option<i64>,
    pub quantity: Option<i64>,
}

/// The body of `POST /store/purchase-orders/{id}/receive` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReceiptInput {
    pub lines: Option<Vec<ReceiptLineInput>>,
}

/// A validated receipt: units that arrived, by pet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    pub lines: Vec<(i64, i64)>,
}

impl TryFrom<ReceiptInput> for Receipt {
    type Error = DomainError;

    fn try_from(input: ReceiptInput) -> Result<Self, DomainError> {
        let raw = required("lines", input.lines)?;
        lines_len(raw.len())?;
        let mut lines = Vec::with_capacity(raw.len());
        for (i, line) in raw.into_iter().enumerate() {
            let pet_field = format!("lines[{i}].petId");
            let pet_id = required(&pet_field, line.pet_id)?;
            lines.push((
                positive_id(&pet_field, pet_id)?,
                units(&format!("lines[{i}].quantity"), line.quantity)?,
            ));
        }
        once_each(lines.iter().map(|l| l.0))?;
        Ok(Self { lines })
    }
}

/// Refuses receiving `units` more of `line` past what was ordered.
pub fn check_receipt(
    order_id: i64,
    line: Option<&Line>,
    pet_id: i64,
    units: i64,
) -> Result<(), DomainError> {
    let left = line.map_or(0, |l| l.ordered - l.received);
    if units > left {
        Err(DomainError::OverReceipt {
            order_id,
            pet_id,
            left,
            requested: units,
        })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(ordered: i64, received: i64) -> Line {
        Line {
            pet_id: 1,
            ordered,
            received,
            cost: 100,
        }
    }

    #[test]
    fn a_suggestion_orders_the_reorder_quantity_else_twice_the_point_less_the_stock() {
        assert_eq!(suggested_units(Some(24), 5, 2), 24);
        assert_eq!(suggested_units(None, 5, 2), 8);
        assert_eq!(suggested_units(None, 0, 0), 1);
        assert_eq!(suggested_units(None, 3, 6), 1);
    }

    #[test]
    fn an_order_is_received_once_every_line_is_and_partial_before() {
        assert_eq!(
            status_after_receipt(&[line(2, 2), line(3, 1)]),
            Status::Partial
        );
        assert_eq!(
            status_after_receipt(&[line(2, 2), line(3, 3)]),
            Status::Received
        );
        assert_eq!(total(&[line(2, 0), line(3, 0)]), 500);
    }

    #[test]
    fn closed_orders_refuse_every_change_and_a_partial_one_cannot_be_cancelled() {
        for closed in [Status::Received, Status::Cancelled] {
            for check in [
                Status::check_edit,
                Status::check_send,
                Status::check_receive,
                Status::check_cancel,
            ] {
                let err = check(closed, 7).unwrap_err();
                assert_eq!(err.code(), crate::contract::Code::PurchaseOrderClosed);
            }
        }
        let err = Status::Partial.check_cancel(7).unwrap_err();
        assert_eq!(err.code(), crate::contract::Code::Conflict);
        assert!(Status::Sent.check_cancel(7).is_ok());
        assert!(Status::Draft.check_receive(7).is_err());
        assert!(Status::Partial.check_receive(7).is_ok());
    }

    #[test]
    fn receiving_past_what_is_left_is_an_over_receipt() {
        assert!(check_receipt(1, Some(&line(5, 3)), 1, 2).is_ok());
        let err = check_receipt(1, Some(&line(5, 3)), 1, 3).unwrap_err();
        assert_eq!(err.code(), crate::contract::Code::OverReceipt);
        assert!(check_receipt(1, None, 9, 1).is_err());
    }

    #[test]
    fn a_pet_may_be_on_one_line_only_and_lines_name_their_index() {
        let input: PurchaseOrderInput = serde_json::from_str(
            r#"{"supplierId": 1, "lines": [{"petId": 4, "quantity": 1}, {"petId": 4, "quantity": 2}]}"#,
        )
        .unwrap();
        let err = NewPurchaseOrder::try_from(input).unwrap_err();
        assert!(err.to_string().starts_with("lines[1].petId"), "{err}");
        let input: PurchaseOrderInput =
            serde_json::from_str(r#"{"supplierId": 1, "lines": [{"petId": 4, "quantity": 0}]}"#)
                .unwrap();
        let err = NewPurchaseOrder::try_from(input).unwrap_err();
        assert!(err.to_string().starts_with("lines[0].quantity"), "{err}");
    }
}
