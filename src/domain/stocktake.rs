//! Stocktakes: counting the shelves while the shop keeps selling.
//!
//! A count records the stock the store expected at that moment. Applying sets each counted
//! pet's stock to what was counted plus the net change since the count, so sales (and other
//! changes) made while counting are kept. An applied stocktake is closed.

use serde::{Deserialize, Serialize};

use super::inventory::STOCK_MAX;
use super::{required, text, DomainError};

/// Where a stocktake is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StocktakeStatus {
    Open,
    Applied,
}

impl StocktakeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Applied => "applied",
        }
    }

    pub fn parse(raw: &str) -> Self {
        if raw == "applied" {
            Self::Applied
        } else {
            Self::Open
        }
    }
}

/// One counted pet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    pub pet_id: i64,
    pub counted: i64,
    pub counted_at: String,
    /// The stock when it was counted.
    pub expected: i64,
    /// `counted - expected`.
    pub variance: i64,
}

impl Line {
    pub fn new(pet_id: i64, counted: i64, counted_at: String, expected: i64) -> Self {
        Self {
            pet_id,
            counted,
            counted_at,
            expected,
            variance: counted - expected,
        }
    }
}

/// A stocktake as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Stocktake {
    pub id: i64,
    pub status: StocktakeStatus,
    pub note: Option<String>,
    pub created_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applied_at: Option<String>,
    pub lines: Vec<Line>,
}

impl Stocktake {
    /// Only an open stocktake may change.
    pub fn ensure_open(&self) -> Result<(), DomainError> {
        match self.status {
            StocktakeStatus::Open => Ok(()),
            StocktakeStatus::Applied => Err(DomainError::StocktakeClosed(self.id)),
        }
    }
}

/// The body of `POST /store/stocktakes` as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StocktakeInput {
    pub note: Option<String>,
}

/// A validated new stocktake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewStocktake {
    pub note: Option<String>,
}

impl TryFrom<StocktakeInput> for NewStocktake {
    type Error = DomainError;

    fn try_from(input: StocktakeInput) -> Result<Self, DomainError> {
        Ok(Self {
            note: text::reason("note", input.note.as_deref())?,
        })
    }
}

/// The body of `PUT /store/stocktakes/{id}/lines/{petId}` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CountInput {
    pub counted: Option<serde_json::Value>,
}

/// A validated count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count(pub i64);

impl TryFrom<CountInput> for Count {
    type Error = DomainError;

    fn try_from(input: CountInput) -> Result<Self, DomainError> {
        let invalid = || {
            DomainError::invalid(
                "counted",
                format!("must be a whole number from 0 to {STOCK_MAX}"),
            )
        };
        let value = required("counted", input.counted)?;
        match value.as_i64() {
            Some(n) if (0..=STOCK_MAX).contains(&n) => Ok(Count(n)),
            _ => Err(invalid()),
        }
    }
}

/// The stock a counted pet gets when the stocktake is applied: what was counted plus the
/// net change since (`current - expected`), kept within 0 and [`STOCK_MAX`].
pub fn applied_stock(line: &Line, current: i64) -> i64 {
    (line.counted + (current - line.expected)).clamp(0, STOCK_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sales_during_the_count_are_kept() {
        // Counted 10 when the store expected 12; 3 were sold since: 7 left.
        let line = Line::new(1, 10, "2026-01-01T10:00:00Z".into(), 12);
        assert_eq!(line.variance, -2);
        assert_eq!(applied_stock(&line, 9), 7);
        // Nothing moved since the count: the count stands.
        assert_eq!(applied_stock(&line, 12), 10);
        // Sold more than counted: never below zero.
        assert_eq!(applied_stock(&Line::new(1, 1, String::new(), 5), 0), 0);
    }

    #[test]
    fn counts_are_whole_numbers_within_the_stock_bounds() {
        let count = |json: &str| Count::try_from(serde_json::from_str::<CountInput>(json).unwrap());
        assert_eq!(count(r#"{"counted": 0}"#).unwrap(), Count(0));
        assert!(count(r#"{"counted": -1}"#).is_err());
        assert!(count(r#"{"counted": 1000001}"#).is_err());
        assert!(count(r#"{"counted": 2.5}"#).is_err());
        assert!(count(r#"{}"#).is_err());
    }
}
