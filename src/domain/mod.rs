//! The shop's records, their validation and their state transitions.
//!
//! Nothing here knows about HTTP or SQL: request bodies arrive as the loose `*Input` shapes
//! and become validated domain values through `TryFrom`, so every rule lives in one place.
//! The store calls the transition functions inside its transactions; the API maps
//! [`DomainError`] to the interface's error codes.

pub mod animal;
pub mod animal_report;
pub mod care;
pub mod category;
pub mod cell;
pub mod code;
pub mod error;
pub mod etag;
pub mod event;
pub mod idempotency;
pub mod import;
pub mod inventory;
pub mod key;
pub mod label;
pub mod label_sheet;
pub mod money;
pub mod order;
pub mod pairing;
pub mod payment;
pub mod pet;
pub mod profile;
pub mod purchase_order;
pub mod query;
pub mod receipt;
pub mod receipt_html;
pub mod refund;
pub mod report;
pub mod sale;
pub mod sale_record;
pub mod shift;
pub mod shift_record;
pub mod sorted_json;
pub mod staff;
pub mod stocktake;
pub mod supplier;
pub mod tax;
pub mod text;
pub mod time;

pub use error::DomainError;
pub use etag::Precondition;

/// `value`, or a validation failure saying that `field` is required.
pub fn required<T>(field: &str, value: Option<T>) -> Result<T, DomainError> {
    value.ok_or_else(|| DomainError::invalid(field, "is required"))
}

/// A merge patch's field that may be left out but not cleared: absent is `None`, `null` is
/// refused ("cannot be null"), and a value is what `check` makes of it.
pub fn not_null<T, U>(
    field: &str,
    patch: Option<Option<T>>,
    check: impl FnOnce(T) -> Result<U, DomainError>,
) -> Result<Option<U>, DomainError> {
    match patch {
        None => Ok(None),
        Some(None) => Err(DomainError::invalid(field, "cannot be null")),
        Some(Some(value)) => check(value).map(Some),
    }
}

/// Deserializes a field that may be absent, `null`, or a value: the three cases of a
/// merge patch (RFC 7396). Absent is `None`, `null` is `Some(None)`.
pub fn double_option<'de, T, D>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    T: serde::Deserialize<'de>,
    D: serde::Deserializer<'de>,
{
    use serde::Deserialize;
    Option::<T>::deserialize(deserializer).map(Some)
}

/// Deserializes a field kept as raw JSON so that `null` stays visible: absent is `None`,
/// present (`null` included) is `Some(value)`.
pub fn present<'de, D>(deserializer: D) -> Result<Option<serde_json::Value>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::Deserialize;
    serde_json::Value::deserialize(deserializer).map(Some)
}
