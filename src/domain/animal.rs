//! Individual animals: a pet's `animal` record (sex, birth date, breed, colour, microchip,
//! where it came from, when it arrived), its `hold`, and the rules that follow from being one
//! individual: its stock is 0 or 1, a sale of it names the buyer, and a hold keeps it from
//! being ordered or sold until the end of the hold's day (the store's time zone).
//!
//! Both records arrive as raw JSON inside a pet's body, so a wrong type is a 422 naming the
//! field (`animal.microchip`), like a wrong format.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{report, text, DomainError};
use crate::contract;

/// The most units of an individual animal the shop can hold: it is one.
pub const INDIVIDUAL_STOCK_MAX: i64 = 1;
/// Digits in a microchip number (ISO 11784).
pub const MICROCHIP_DIGITS: usize = 15;

/// An animal's sex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sex {
    Male,
    Female,
    Unknown,
}

impl Sex {
    pub const ALL: [Sex; 3] = [Self::Male, Self::Female, Self::Unknown];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Male => "male",
            Self::Female => "female",
            Self::Unknown => "unknown",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == raw)
    }
}

/// One individual animal's record. Dates are `YYYY-MM-DD`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Animal {
    pub sex: Sex,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub born_on: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breed: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub microchip: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrived_on: Option<String>,
}

/// A pet held back from sale until the end of `until` (a date of the store's time zone).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hold {
    pub until: String,
    pub reason: String,
}

impl Hold {
    /// Whether the hold still applies on `today`: up to and including its `until`.
    pub fn applies_on(&self, today: NaiveDate) -> bool {
        report::parse_date(&self.until).is_some_and(|until| today <= until)
    }
}

const ANIMAL_FIELDS: [&str; 7] = [
    "sex",
    "bornOn",
    "breed",
    "colour",
    "microchip",
    "source",
    "arrivedOn",
];

/// An `animal` as sent: `null` is none; otherwise an object checked field by field.
pub fn animal_value(value: &Value) -> Result<Option<Animal>, DomainError> {
    let object = match value {
        Value::Null => return Ok(None),
        Value::Object(object) => object,
        _ => return Err(DomainError::invalid("animal", "must be an object or null")),
    };
    only_fields(object, "animal", &ANIMAL_FIELDS)?;
    let sex = match object.get("sex") {
        None | Some(Value::Null) => {
            return Err(DomainError::invalid("animal.sex", "is required"));
        }
        Some(Value::String(s)) => Sex::parse(s),
        Some(_) => None,
    }
    .ok_or_else(|| DomainError::invalid("animal.sex", "must be one of male, female, unknown"))?;
    let microchip = string(object, "animal", "microchip")?
        .map(|raw| microchip("animal.microchip", raw))
        .transpose()?;
    let animal = Animal {
        sex,
        born_on: date(object, "animal", "bornOn")?,
        breed: bounded(object, "breed", contract::BREED.max_usize())?,
        colour: bounded(object, "colour", contract::BREED.max_usize())?,
        microchip,
        source: bounded(object, "source", contract::ANIMAL_SOURCE.max_usize())?,
        arrived_on: date(object, "animal", "arrivedOn")?,
    };
    if let (Some(born), Some(arrived)) = (&animal.born_on, &animal.arrived_on) {
        if arrived < born {
            return Err(DomainError::invalid(
                "animal.arrivedOn",
                format!("{arrived} is before the animal was born ({born})"),
            ));
        }
    }
    Ok(Some(animal))
}

impl Animal {
    /// Refuses a birth or arrival date after `today` (the store's date).
    pub fn check_dates(&self, today: NaiveDate) -> Result<(), DomainError> {
        for (field, value) in [
            ("animal.bornOn", &self.born_on),
            ("animal.arrivedOn", &self.arrived_on),
        ] {
            if let Some(date) = value.as_deref().and_then(report::parse_date) {
                if date > today {
                    return Err(DomainError::invalid(
                        field,
                        format!("{date} is in the future (today is {today})"),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A `hold` as sent: `null` is none; otherwise `{until, reason}`, both required.
pub fn hold_value(value: &Value) -> Result<Option<Hold>, DomainError> {
    let object = match value {
        Value::Null => return Ok(None),
        Value::Object(object) => object,
        _ => return Err(DomainError::invalid("hold", "must be an object or null")),
    };
    only_fields(object, "hold", &["until", "reason"])?;
    let until = date(object, "hold", "until")?
        .ok_or_else(|| DomainError::invalid("hold.until", "is required"))?;
    let reason = match object.get("reason") {
        None | Some(Value::Null) => return Err(DomainError::invalid("hold.reason", "is required")),
        Some(Value::String(raw)) => {
            text::optional("hold.reason", Some(raw), contract::HOLD_REASON.max_usize())?
                .ok_or_else(|| DomainError::invalid("hold.reason", "must not be empty"))?
        }
        Some(_) => return Err(DomainError::invalid("hold.reason", "must be a string")),
    };
    Ok(Some(Hold { until, reason }))
}

/// The hold as a pet's answer shows it on `today`: none once its last day has passed, so a
/// hold no one cleared does not linger on the pet (it holds nothing any more).
pub fn current_hold(hold: Option<Hold>, today: NaiveDate) -> Option<Hold> {
    hold.filter(|hold| hold.applies_on(today))
}

/// Whether a hold may have ended by now anywhere on earth: its last day is before today in
/// the easternmost time zone (UTC+14). A page of pets remembered with such a hold is read
/// again, so the store's own today decides.
pub fn may_have_ended(hold: &Hold, now: chrono::DateTime<chrono::Utc>) -> bool {
    let latest_today = (now + chrono::Duration::hours(14)).date_naive();
    !hold.applies_on(latest_today)
}

/// `on_hold` when `hold` applies on `today`.
pub fn check_not_held(
    pet_id: i64,
    hold: Option<&Hold>,
    today: NaiveDate,
) -> Result<(), DomainError> {
    match hold {
        Some(hold) if hold.applies_on(today) => Err(DomainError::OnHold {
            pet_id,
            until: hold.until.clone(),
            reason: hold.reason.clone(),
        }),
        _ => Ok(()),
    }
}

/// The stock an individual animal may have: 0 or 1. `field` names what was sent.
pub fn check_individual_stock(field: &str, pet_id: i64, quantity: i64) -> Result<(), DomainError> {
    if (0..=INDIVIDUAL_STOCK_MAX).contains(&quantity) {
        return Ok(());
    }
    Err(DomainError::invalid(
        field,
        format!("pet {pet_id} is one individual animal: its stock is 0 or 1, not {quantity}"),
    ))
}

/// Whether a sale's customer names the buyer of an individual animal: a name, and a phone or
/// an email.
pub fn names_buyer(name: Option<&str>, phone: Option<&str>, email: Option<&str>) -> bool {
    let given = |v: Option<&str>| v.is_some_and(|v| !v.trim().is_empty());
    given(name) && (given(phone) || given(email))
}

/// A microchip number: exactly 15 digits.
pub fn microchip(field: &str, raw: &str) -> Result<String, DomainError> {
    let raw = raw.trim();
    if raw.len() == MICROCHIP_DIGITS && raw.bytes().all(|b| b.is_ascii_digit()) {
        Ok(raw.to_owned())
    } else {
        Err(DomainError::invalid(
            field,
            format!("must be a string of {MICROCHIP_DIGITS} digits"),
        ))
    }
}

fn only_fields(object: &Map<String, Value>, name: &str, known: &[&str]) -> Result<(), DomainError> {
    match object.keys().find(|k| !known.contains(&k.as_str())) {
        Some(unknown) => Err(DomainError::invalid(
            &format!("{name}.{unknown}"),
            format!("is not a field of {name} (known: {})", known.join(", ")),
        )),
        None => Ok(()),
    }
}

fn string<'v>(
    object: &'v Map<String, Value>,
    name: &str,
    field: &str,
) -> Result<Option<&'v str>, DomainError> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(DomainError::invalid(
            &format!("{name}.{field}"),
            "must be a string",
        )),
    }
}

fn bounded(
    object: &Map<String, Value>,
    field: &str,
    max: usize,
) -> Result<Option<String>, DomainError> {
    let name = format!("animal.{field}");
    text::optional(&name, string(object, "animal", field)?, max)
}

fn date(
    object: &Map<String, Value>,
    name: &str,
    field: &str,
) -> Result<Option<String>, DomainError> {
    match string(object, name, field)? {
        None => Ok(None),
        Some(raw) => report::parse_date(raw)
            .map(|d| Some(d.to_string()))
            .ok_or_else(|| {
                DomainError::invalid(&format!("{name}.{field}"), "must be a date as YYYY-MM-DD")
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_animal_needs_a_known_sex_and_keeps_only_what_was_given() {
        assert!(animal_value(&json!({})).is_err());
        assert!(animal_value(&json!({"sex": "boy"})).is_err());
        let animal = animal_value(&json!({"sex": "female", "breed": " Beagle "}))
            .unwrap()
            .unwrap();
        assert_eq!(animal.sex, Sex::Female);
        assert_eq!(animal.breed.as_deref(), Some("Beagle"));
        assert_eq!(animal.microchip, None);
        assert_eq!(animal_value(&Value::Null).unwrap(), None);
    }

    #[test]
    fn a_microchip_is_fifteen_digits_and_errors_name_the_nested_field() {
        for bad in [
            json!("12345678901234"),
            json!("1234567890123456"),
            json!("12345678901234x"),
            json!(123),
        ] {
            let err = animal_value(&json!({"sex": "male", "microchip": bad})).unwrap_err();
            assert!(err.to_string().starts_with("animal.microchip"), "{err}");
        }
        let ok = animal_value(&json!({"sex": "male", "microchip": "985112345678901"})).unwrap();
        assert_eq!(ok.unwrap().microchip.as_deref(), Some("985112345678901"));
        let err = animal_value(&json!({"sex": "male", "size": 3})).unwrap_err();
        assert!(err.to_string().starts_with("animal.size"), "{err}");
    }

    #[test]
    fn dates_after_today_are_refused_and_today_is_accepted() {
        let today = NaiveDate::from_ymd_opt(2026, 5, 1).unwrap();
        let animal = animal_value(&json!({"sex": "male", "bornOn": "2026-05-01"}))
            .unwrap()
            .unwrap();
        assert!(animal.check_dates(today).is_ok());
        let animal = animal_value(&json!({"sex": "male", "arrivedOn": "2026-05-02"}))
            .unwrap()
            .unwrap();
        let err = animal.check_dates(today).unwrap_err();
        assert!(err.to_string().starts_with("animal.arrivedOn"), "{err}");
        assert!(animal_value(&json!({"sex": "male", "bornOn": "2026-13-01"})).is_err());
    }

    #[test]
    fn a_hold_applies_through_the_end_of_its_day_and_needs_a_reason() {
        let hold = hold_value(&json!({"until": "2026-05-01", "reason": "quarantine"}))
            .unwrap()
            .unwrap();
        assert!(hold.applies_on(NaiveDate::from_ymd_opt(2026, 5, 1).unwrap()));
        assert!(!hold.applies_on(NaiveDate::from_ymd_opt(2026, 5, 2).unwrap()));
        assert!(hold_value(&json!({"until": "2026-05-01"})).is_err());
        assert!(hold_value(&json!({"until": "2026-05-01", "reason": "  "})).is_err());
        assert!(hold_value(&json!({"reason": "x"})).is_err());
        let may_1 = NaiveDate::from_ymd_opt(2026, 5, 1).unwrap();
        assert_eq!(current_hold(Some(hold.clone()), may_1), Some(hold.clone()));
        assert_eq!(
            current_hold(Some(hold.clone()), may_1.succ_opt().unwrap()),
            None
        );
        // Remembered pages are read again once the hold may have ended in any time zone.
        let at = |s: &str| s.parse::<chrono::DateTime<chrono::Utc>>().unwrap();
        assert!(!may_have_ended(&hold, at("2026-05-01T09:59:00Z")));
        assert!(may_have_ended(&hold, at("2026-05-01T10:00:00Z")));
        let long = "x".repeat(201);
        assert!(hold_value(&json!({"until": "2026-05-01", "reason": long})).is_err());
    }

    #[test]
    fn the_buyer_is_a_name_and_a_phone_or_an_email() {
        assert!(names_buyer(Some("Ann"), Some("555"), None));
        assert!(names_buyer(Some("Ann"), None, Some("a@b.c")));
        assert!(!names_buyer(Some("Ann"), None, None));
        assert!(!names_buyer(None, Some("555"), Some("a@b.c")));
        assert!(!names_buyer(Some(" "), Some("555"), None));
    }

    #[test]
    fn an_individual_animal_has_zero_or_one_in_stock() {
        assert!(check_individual_stock("quantity", 1, 0).is_ok());
        assert!(check_individual_stock("quantity", 1, 1).is_ok());
        assert!(check_individual_stock("quantity", 1, 2).is_err());
    }
}
