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
    /// The staff member's name, when a member's session made the change.
    #[serde(rename = "keyName", skip_serializing_if = "Option::is_none")]
    pub key_name: Option<String>,
    /// The staff member's id, when a member's session made the change.
    #[serde(rename = "staffId", skip_serializing_if = "Option::is_none")]
    pub staff_id: Option<i64>,
}
