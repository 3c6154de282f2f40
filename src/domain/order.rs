//! Orders and the transition rules that tie them to a pet's stock and status.
//!
//! The rules, numbered as in the contract:
//! 1. an order needs a pet that is `available` (or has no status) and enough stock;
//! 2. taking the last unit makes the pet `pending`;
//! 3. completing the last open order of a pet with no stock left makes it `sold`;
//! 4. cancelling returns the units, and a `pending` pet becomes `available` again;
//! 5. staff may set any status themselves (see [`super::pet`]);
//! 6. completing an order without a ship date sets it to the completion time.

use serde::{Deserialize, Serialize};

use super::pet::{positive_id, PetStatus};
use super::{double_option, not_null, required, time, DomainError};

/// Fewest units in one order.
pub const QUANTITY_MIN: i64 = crate::contract::QUANTITY.min;
/// Most units in one order.
pub const QUANTITY_MAX: i64 = crate::contract::QUANTITY.max;

/// An order as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    pub id: i64,
    pub pet_id: i64,
    /// The pet's name when the order was placed; absent on orders placed before the store
    /// kept it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pet_name: Option<String>,
    pub quantity: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ship_date: Option<String>,
    pub complete: bool,
    /// When the order was placed (RFC 3339, UTC).
    #[serde(default)]
    pub placed_at: String,
    /// When the order was completed, once it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completed_at: Option<String>,
    /// The pet's price when the order was placed; absent when it had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_price: Option<i64>,
    /// `unitPrice × quantity`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// The sale this order is a line of (interface 1.2); absent for an order on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sale_id: Option<i64>,
}

impl Order {
    /// `unitPrice × quantity`, when the order has a unit price.
    pub fn total_of(unit_price: Option<i64>, quantity: i64) -> Option<i64> {
        unit_price.map(|price| price.saturating_mul(quantity))
    }
}

/// A cancelled order, as `GET /store/cancelled-orders` (beta) lists it: cancelling deletes
/// the order (its id answers 404) and keeps this record of it, so a clerk can still tell a
/// cancelled order from one that was never placed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledOrder {
    pub id: i64,
    pub pet_id: i64,
    /// The pet's name when the order was placed; absent on orders placed before the store
    /// kept it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pet_name: Option<String>,
    pub quantity: i64,
    /// The pet's price when the order was placed; absent when it had none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_price: Option<i64>,
    /// `unitPrice × quantity`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<i64>,
    /// When the order was placed (RFC 3339, UTC).
    pub placed_at: String,
    /// When it was cancelled (RFC 3339, UTC).
    pub cancelled_at: String,
}

/// The body of `POST /store/orders` as sent.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OrderInput {
    pub pet_id: Option<i64>,
    pub quantity: Option<i64>,
    pub ship_date: Option<String>,
}

/// A validated new order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewOrder {
    pub pet_id: i64,
    pub quantity: i64,
    pub ship_date: Option<String>,
}

impl TryFrom<OrderInput> for NewOrder {
    type Error = DomainError;

    fn try_from(input: OrderInput) -> Result<Self, DomainError> {
        let pet_id = required("petId", input.pet_id)?;
        let quantity = required("quantity", input.quantity)?;
        if !(QUANTITY_MIN..=QUANTITY_MAX).contains(&quantity) {
            return Err(DomainError::invalid(
                "quantity",
                format!("must be between {QUANTITY_MIN} and {QUANTITY_MAX}"),
            ));
        }
        Ok(Self {
            pet_id: positive_id("petId", pet_id)?,
            quantity,
            ship_date: input
                .ship_date
                .map(|d| time::parse("shipDate", &d))
                .transpose()?,
        })
    }
}

/// The body of `PATCH /store/orders/{orderId}` as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct OrderPatchInput {
    #[serde(default, deserialize_with = "double_option")]
    pub complete: Option<Option<bool>>,
    #[serde(default, deserialize_with = "double_option")]
    pub ship_date: Option<Option<String>>,
}

/// A validated change to an order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderPatch {
    pub complete: Option<bool>,
    pub ship_date: Option<String>,
}

impl TryFrom<OrderPatchInput> for OrderPatch {
    type Error = DomainError;

    fn try_from(input: OrderPatchInput) -> Result<Self, DomainError> {
        let complete = not_null("complete", input.complete, Ok)?;
        let ship_date = not_null("shipDate", input.ship_date, |d| time::parse("shipDate", &d))?;
        Ok(Self {
            complete,
            ship_date,
        })
    }
}

/// What placing an order does to its pet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub stock_after: i64,
    pub status_after: Option<PetStatus>,
}

/// Rules 1 and 2: may `quantity` units of a pet with this status and stock be ordered?
/// Availability is checked before stock.
pub fn place(
    pet_id: i64,
    status: Option<PetStatus>,
    stock: i64,
    quantity: i64,
) -> Result<Placement, DomainError> {
    if !matches!(status, None | Some(PetStatus::Available)) {
        return Err(DomainError::PetNotAvailable {
            pet_id,
            status: status.map_or("unknown", PetStatus::as_str).to_owned(),
        });
    }
    if quantity > stock {
        return Err(DomainError::InsufficientStock {
            pet_id,
            available: stock,
            requested: quantity,
        });
    }
    let stock_after = stock - quantity;
    let status_after = status_after_placing(status, stock_after);
    Ok(Placement {
        stock_after,
        status_after,
    })
}

/// The pet's status once an order has left `stock_after` units: `pending` when the last
/// unit went (rule 2), unchanged otherwise.
pub fn status_after_placing(status: Option<PetStatus>, stock_after: i64) -> Option<PetStatus> {
    if stock_after == 0 {
        Some(PetStatus::Pending)
    } else {
        status
    }
}

/// What a change to an order does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderChange {
    /// Nothing to do (completing a completed order, or an empty patch).
    None,
    /// Only the ship date of an open order changes.
    ShipDate(String),
    /// The order becomes complete with this ship date (rule 6).
    Complete { ship_date: String },
}

/// Decides what a patch does to `order`; completion is one-way.
pub fn change(order: &Order, patch: &OrderPatch, now: &str) -> Result<OrderChange, DomainError> {
    if order.complete {
        return match (patch.complete, &patch.ship_date) {
            (Some(false), _) | (_, Some(_)) => Err(DomainError::OrderAlreadyComplete(order.id)),
            _ => Ok(OrderChange::None),
        };
    }
    match (patch.complete, &patch.ship_date) {
        (Some(true), date) => Ok(OrderChange::Complete {
            ship_date: date
                .clone()
                .or_else(|| order.ship_date.clone())
                .unwrap_or_else(|| now.to_owned()),
        }),
        (_, Some(date)) => Ok(OrderChange::ShipDate(date.clone())),
        _ => Ok(OrderChange::None),
    }
}

/// Rule 3: the pet's status once an order of it is completed.
pub fn status_after_completion(
    status: Option<PetStatus>,
    stock: i64,
    other_open_orders: i64,
) -> Option<PetStatus> {
    if stock == 0 && other_open_orders == 0 {
        Some(PetStatus::Sold)
    } else {
        status
    }
}

/// Rule 4: the pet's status once an order of it is cancelled.
pub fn status_after_cancel(status: Option<PetStatus>) -> Option<PetStatus> {
    match status {
        Some(PetStatus::Pending) => Some(PetStatus::Available),
        other => other,
    }
}

/// Only an open order can be cancelled.
pub fn cancel(order: &Order) -> Result<(), DomainError> {
    if order.complete {
        Err(DomainError::OrderAlreadyComplete(order.id))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PetStatus::*;

    fn order(complete: bool) -> Order {
        Order {
            id: 7,
            pet_id: 1,
            quantity: 1,
            ship_date: None,
            complete,
            placed_at: "2026-01-01T00:00:00Z".into(),
            completed_at: None,
            unit_price: None,
            total: None,
            sale_id: None,
            pet_name: None,
        }
    }

    #[test]
    fn only_available_or_unset_pets_can_be_ordered() {
        assert!(place(1, None, 5, 1).is_ok());
        assert!(place(1, Some(Available), 5, 1).is_ok());
        for status in [Pending, Sold] {
            let err = place(1, Some(status), 5, 1).unwrap_err();
            assert_eq!(err.code(), crate::contract::Code::PetNotAvailable);
        }
    }

    #[test]
    fn availability_is_checked_before_stock() {
        let err = place(1, Some(Pending), 0, 1).unwrap_err();
        assert_eq!(err.code(), crate::contract::Code::PetNotAvailable);
    }

    #[test]
    fn an_order_cannot_take_more_than_the_stock() {
        let err = place(1, None, 2, 3).unwrap_err();
        assert_eq!(err.code(), crate::contract::Code::InsufficientStock);
    }

    #[test]
    fn taking_the_last_unit_makes_the_pet_pending() {
        let p = place(1, Some(Available), 2, 2).unwrap();
        assert_eq!(
            p,
            Placement {
                stock_after: 0,
                status_after: Some(Pending)
            }
        );
        let p = place(1, None, 3, 2).unwrap();
        assert_eq!(
            p,
            Placement {
                stock_after: 1,
                status_after: None
            }
        );
    }

    #[test]
    fn completing_the_last_open_order_with_no_stock_sells_the_pet() {
        assert_eq!(status_after_completion(Some(Pending), 0, 0), Some(Sold));
        assert_eq!(status_after_completion(Some(Pending), 0, 1), Some(Pending));
        assert_eq!(
            status_after_completion(Some(Available), 3, 0),
            Some(Available)
        );
    }

    #[test]
    fn cancelling_makes_a_pending_pet_available_again() {
        assert_eq!(status_after_cancel(Some(Pending)), Some(Available));
        assert_eq!(status_after_cancel(Some(Sold)), Some(Sold));
        assert_eq!(status_after_cancel(None), None);
    }

    #[test]
    fn completion_is_one_way_and_sets_the_ship_date() {
        let now = "2026-01-01T00:00:00Z";
        let complete = OrderPatch {
            complete: Some(true),
            ship_date: None,
        };
        assert_eq!(
            change(&order(false), &complete, now).unwrap(),
            OrderChange::Complete {
                ship_date: now.into()
            }
        );
        assert_eq!(
            change(&order(true), &complete, now).unwrap(),
            OrderChange::None
        );
        let reopen = OrderPatch {
            complete: Some(false),
            ship_date: None,
        };
        assert_eq!(
            change(&order(true), &reopen, now).unwrap_err().code(),
            crate::contract::Code::OrderAlreadyComplete
        );
        assert!(cancel(&order(true)).is_err());
    }
}
