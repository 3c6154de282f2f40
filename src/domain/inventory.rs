//! Stock counts per pet and the history of every change to them.

use serde::{Deserialize, Serialize};

use super::pet::PetStatus;
use super::{required, text, DomainError};
use crate::contract;

/// Most units of one pet a shop can hold.
pub const STOCK_MAX: i64 = contract::STOCK.max;

/// A pet's stock as the interface shows it. A pet without a status shows `available`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InventoryItem {
    pub pet_id: i64,
    pub quantity: i64,
    pub status: PetStatus,
    /// At or below this quantity the item is low and should be reordered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reorder_point: Option<i64>,
}

impl InventoryItem {
    pub fn new(pet_id: i64, quantity: i64, status: Option<PetStatus>) -> Self {
        Self {
            pet_id,
            quantity,
            status: status.unwrap_or(PetStatus::Available),
            reorder_point: None,
        }
    }

    /// Whether the item has a reorder point and its quantity is at or below it.
    pub fn is_low(&self) -> bool {
        self.reorder_point
            .is_some_and(|point| self.quantity <= point)
    }
}

/// Whether going from `before` to `after` makes an item low: it was above its reorder point
/// (or had none) and now is at or below it. This is when `inventory.low` is emitted.
pub fn became_low(before: &InventoryItem, after: &InventoryItem) -> bool {
    after.is_low() && !before.is_low()
}

/// The body of `PATCH /store/inventory/{petId}` as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InventoryPatchInput {
    /// Absent leaves it; `null` clears it.
    #[serde(default, deserialize_with = "super::present")]
    pub reorder_point: Option<serde_json::Value>,
}

/// A validated change of an item's settings: `Some(None)` clears the reorder point.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InventoryPatch {
    pub reorder_point: Option<Option<i64>>,
}

impl TryFrom<InventoryPatchInput> for InventoryPatch {
    type Error = DomainError;

    fn try_from(input: InventoryPatchInput) -> Result<Self, DomainError> {
        let reorder_point = input
            .reorder_point
            .as_ref()
            .map(reorder_point)
            .transpose()?;
        Ok(Self { reorder_point })
    }
}

/// A reorder point as JSON: `null`, or a whole number within [`contract::REORDER_POINT`].
pub fn reorder_point(value: &serde_json::Value) -> Result<Option<i64>, DomainError> {
    match value {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(v) if contract::REORDER_POINT.contains(v) => Ok(Some(v)),
            _ => Err(reorder_point_error()),
        },
        _ => Err(reorder_point_error()),
    }
}

/// Why a reorder point was refused.
pub fn reorder_point_error() -> DomainError {
    DomainError::invalid(
        "reorderPoint",
        format!(
            "must be a whole number from {} to {}, or null",
            contract::REORDER_POINT.min,
            contract::REORDER_POINT.max
        ),
    )
}

/// What caused a change of stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Order,
    Cancel,
    Set,
    Adjustment,
    /// A stocktake applied.
    Count,
    /// A CSV import.
    Import,
    /// Units a sale's refund put back.
    Refund,
    /// Units a purchase order brought in.
    Received,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Order => "order",
            Self::Cancel => "cancel",
            Self::Set => "set",
            Self::Adjustment => "adjustment",
            Self::Count => "count",
            Self::Import => "import",
            Self::Refund => "refund",
            Self::Received => "received",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        [
            Self::Order,
            Self::Cancel,
            Self::Set,
            Self::Adjustment,
            Self::Count,
            Self::Import,
            Self::Refund,
            Self::Received,
        ]
        .into_iter()
        .find(|s| s.as_str() == raw)
    }
}

/// One entry of a pet's stock history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StockChange {
    pub id: i64,
    pub pet_id: i64,
    pub delta: i64,
    pub quantity_after: i64,
    pub reason: Option<String>,
    pub source: Source,
    pub order_id: Option<i64>,
    pub key_name: Option<String>,
    pub at: String,
    /// The staff member whose session made the change (their name is `key_name`). Left out
    /// otherwise, so an entry made with a key reads as it did in interface 1.0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub staff_id: Option<i64>,
    /// The purchase order whose units these were (source `received`); left out otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purchase_order_id: Option<i64>,
}

/// The body of `PUT /store/inventory/{petId}` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct InventoryUpdateInput {
    pub quantity: Option<i64>,
    pub reason: Option<String>,
}

/// A validated stock count to set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InventoryUpdate {
    pub quantity: i64,
    pub reason: Option<String>,
}

impl TryFrom<InventoryUpdateInput> for InventoryUpdate {
    type Error = DomainError;

    fn try_from(input: InventoryUpdateInput) -> Result<Self, DomainError> {
        let quantity = required("quantity", input.quantity)?;
        if !(0..=STOCK_MAX).contains(&quantity) {
            return Err(DomainError::invalid(
                "quantity",
                format!("must be between 0 and {STOCK_MAX}"),
            ));
        }
        Ok(Self {
            quantity,
            reason: text::reason("reason", input.reason.as_deref())?,
        })
    }
}

/// The body of `POST /store/inventory/{petId}/adjustments` as sent.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AdjustmentInput {
    pub delta: Option<i64>,
    pub reason: Option<String>,
}

/// A validated relative change of stock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjustment {
    pub delta: i64,
    pub reason: Option<String>,
}

impl TryFrom<AdjustmentInput> for Adjustment {
    type Error = DomainError;

    fn try_from(input: AdjustmentInput) -> Result<Self, DomainError> {
        let delta = required("delta", input.delta)?;
        if delta == 0 || !contract::DELTA.contains(delta) {
            return Err(DomainError::invalid(
                "delta",
                format!(
                    "must be a non-zero integer between {} and {}",
                    contract::DELTA.min,
                    contract::DELTA.max
                ),
            ));
        }
        Ok(Self {
            delta,
            reason: text::reason("reason", input.reason.as_deref())?,
        })
    }
}

/// The stock after adding `delta`: never below 0, never above [`STOCK_MAX`].
pub fn adjust(pet_id: i64, stock: i64, delta: i64) -> Result<i64, DomainError> {
    let after = stock + delta;
    if after < 0 {
        return Err(DomainError::InsufficientStock {
            pet_id,
            available: stock,
            requested: -delta,
        });
    }
    if after > STOCK_MAX {
        return Err(DomainError::invalid(
            "delta",
            format!(
                "would take the stock to {after}, above the most a shop can hold ({STOCK_MAX})"
            ),
        ));
    }
    Ok(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stock_never_goes_below_zero_or_above_the_maximum() {
        assert_eq!(adjust(1, 5, -5).unwrap(), 0);
        assert_eq!(
            adjust(1, 5, -6).unwrap_err().code(),
            crate::contract::Code::InsufficientStock
        );
        assert_eq!(
            adjust(1, STOCK_MAX, 1).unwrap_err().code(),
            crate::contract::Code::ValidationFailed
        );
    }

    #[test]
    fn a_pet_without_status_is_reported_available() {
        assert_eq!(InventoryItem::new(1, 0, None).status, PetStatus::Available);
    }

    #[test]
    fn a_zero_adjustment_is_refused() {
        let input = AdjustmentInput {
            delta: Some(0),
            reason: None,
        };
        assert!(Adjustment::try_from(input).is_err());
    }
}
