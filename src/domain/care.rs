//! The care log: what was done for an animal (fed, checked, vaccinated, treated, weighed, or
//! a note) and when that kind of care is next due. Entries are only ever added: never changed,
//! never deleted, so the log is the shop's record for an inspector.
//!
//! What falls due is read from the log: for each pet not sold and each kind, the latest entry
//! of that kind decides (a later entry, with or without a `dueOn`, replaces the earlier).

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::{report, required, text, DomainError};
use crate::contract;

/// What kind of care an entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CareKind {
    Fed,
    HealthCheck,
    Vaccination,
    Treatment,
    Weight,
    Note,
}

impl CareKind {
    pub const ALL: [CareKind; 6] = [
        Self::Fed,
        Self::HealthCheck,
        Self::Vaccination,
        Self::Treatment,
        Self::Weight,
        Self::Note,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fed => "fed",
            Self::HealthCheck => "health_check",
            Self::Vaccination => "vaccination",
            Self::Treatment => "treatment",
            Self::Weight => "weight",
            Self::Note => "note",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == raw)
    }

    /// The kinds as the interface lists them, for messages.
    pub fn listed() -> String {
        Self::ALL.map(Self::as_str).join(", ")
    }
}

/// The body of `POST /pets/{petId}/care` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CareInput {
    pub kind: Option<String>,
    pub note: Option<String>,
    pub product: Option<String>,
    pub weight_grams: Option<i64>,
    pub due_on: Option<String>,
}

/// A validated care entry to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCare {
    pub kind: CareKind,
    pub note: Option<String>,
    pub product: Option<String>,
    pub weight_grams: Option<i64>,
    pub due_on: Option<String>,
}

impl TryFrom<CareInput> for NewCare {
    type Error = DomainError;

    fn try_from(input: CareInput) -> Result<Self, DomainError> {
        let kind = required("kind", input.kind)?;
        let kind = CareKind::parse(&kind).ok_or_else(|| {
            DomainError::invalid("kind", format!("must be one of {}", CareKind::listed()))
        })?;
        let weight_grams = input
            .weight_grams
            .map(|grams| {
                if contract::WEIGHT_GRAMS.contains(grams) {
                    Ok(grams)
                } else {
                    Err(DomainError::invalid(
                        "weightGrams",
                        format!(
                            "must be a whole number of grams from {} to {}",
                            contract::WEIGHT_GRAMS.min,
                            contract::WEIGHT_GRAMS.max
                        ),
                    ))
                }
            })
            .transpose()?;
        let due_on = input
            .due_on
            .map(|raw| {
                report::parse_date(&raw)
                    .map(|d| d.to_string())
                    .ok_or_else(|| DomainError::invalid("dueOn", "must be a date as YYYY-MM-DD"))
            })
            .transpose()?;
        Ok(Self {
            kind,
            note: text::optional(
                "note",
                input.note.as_deref(),
                contract::CARE_NOTE.max_usize(),
            )?,
            product: text::optional(
                "product",
                input.product.as_deref(),
                contract::CARE_PRODUCT.max_usize(),
            )?,
            weight_grams,
            due_on,
        })
    }
}

/// A care entry as the interface shows it: every field, `null` when it has no value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CareEntry {
    pub id: i64,
    pub pet_id: i64,
    pub kind: CareKind,
    pub note: Option<String>,
    pub product: Option<String>,
    pub weight_grams: Option<i64>,
    pub due_on: Option<String>,
    pub at: String,
    pub key_name: Option<String>,
    pub staff_id: Option<i64>,
}

/// One line of `GET /store/care/due`: the latest entry of a kind for a pet, with its due date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DueCare {
    pub pet_id: i64,
    pub name: String,
    pub kind: CareKind,
    pub due_on: String,
    /// Today − `dueOn` in days: positive once overdue, negative while still ahead.
    pub overdue_days: i64,
    pub last_at: String,
}

/// The last date `GET /store/care/due?within=N` lists: today + N days.
pub fn due_by(today: NaiveDate, within: i64) -> NaiveDate {
    today + chrono::Days::new(u64::try_from(within.max(0)).unwrap_or(0))
}

/// Days from `due_on` to `today`: positive once overdue.
pub fn overdue_days(today: NaiveDate, due_on: &str) -> i64 {
    report::parse_date(due_on).map_or(0, |due| (today - due).num_days())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(kind: &str) -> CareInput {
        CareInput {
            kind: Some(kind.into()),
            note: None,
            product: None,
            weight_grams: None,
            due_on: None,
        }
    }

    #[test]
    fn a_care_entry_needs_a_known_kind_and_its_weight_within_bounds() {
        assert!(NewCare::try_from(input("fed")).is_ok());
        let err = NewCare::try_from(input("groomed")).unwrap_err();
        assert!(err.to_string().starts_with("kind"), "{err}");
        let weighed = CareInput {
            weight_grams: Some(200_000),
            ..input("weight")
        };
        assert_eq!(
            NewCare::try_from(weighed).unwrap().weight_grams,
            Some(200_000)
        );
        for grams in [0, 200_001] {
            let bad = CareInput {
                weight_grams: Some(grams),
                ..input("fed")
            };
            assert!(NewCare::try_from(bad).is_err());
        }
    }

    #[test]
    fn overdue_days_count_from_the_due_date_to_today() {
        let today = NaiveDate::from_ymd_opt(2026, 5, 10).unwrap();
        assert_eq!(overdue_days(today, "2026-05-07"), 3);
        assert_eq!(overdue_days(today, "2026-05-12"), -2);
        assert_eq!(due_by(today, 7).to_string(), "2026-05-17");
    }
}
