//! Timestamps as the interface writes them: RFC 3339, UTC, whole seconds.

use chrono::{DateTime, SecondsFormat, Utc};

use super::DomainError;

/// The current time as the interface writes it.
pub fn now() -> String {
    format(Utc::now())
}

/// A time as the interface writes it.
pub fn format(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// Parses a client's RFC 3339 date-time into the interface's UTC form.
pub fn parse(field: &str, raw: &str) -> Result<String, DomainError> {
    DateTime::parse_from_rfc3339(raw.trim())
        .map(|at| format(at.with_timezone(&Utc)))
        .map_err(|_| {
            DomainError::invalid(
                field,
                "must be an RFC 3339 date-time, e.g. 2026-05-01T10:00:00Z",
            )
        })
}
