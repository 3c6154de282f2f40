//! Change events: what is broadcast to `/events` subscribers as each change commits.

use serde::Serialize;

/// One committed change, as `/events` sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    /// Increasing; the SSE `id:` and what `Last-Event-ID` resumes from.
    #[serde(skip)]
    pub id: i64,
    /// `pet.created`, `order.completed`, …
    #[serde(rename = "type")]
    pub kind: String,
    /// When the change committed (RFC 3339, UTC).
    pub at: String,
    /// The record as it now is (or `{id}` for a deletion).
    pub data: serde_json::Value,
}
