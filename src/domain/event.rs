//! Change events: what is broadcast to `/events` subscribers as each change commits.
//!
//! An event's record is encoded once, when the change emits it ([`EventData::of`]): the same
//! text is written to the events table and sent to every subscriber.

use serde::Serialize;

use super::sorted_json;

/// One committed change, as `/events` sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Increasing; the SSE `id:` and what `Last-Event-ID` resumes from.
    pub id: i64,
    /// `pet.created`, `order.completed`, …
    pub kind: String,
    /// When the change committed (RFC 3339, UTC).
    pub at: String,
    /// The record as it now is (or `{id}` for a deletion).
    pub data: EventData,
    /// The staff member's name, when a member's session made the change.
    pub key_name: Option<String>,
    /// The staff member's id, when a member's session made the change.
    pub staff_id: Option<i64>,
}

impl Event {
    /// The event as `/events` sends it: `{"type", "at", "data"}`, then `keyName` and
    /// `staffId` when a member made the change (the id is the SSE `id:` line, not here).
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(self.data.as_str().len() + 96);
        out.push_str("{\"type\":");
        push_str(&mut out, &self.kind);
        out.push_str(",\"at\":");
        push_str(&mut out, &self.at);
        out.push_str(",\"data\":");
        out.push_str(self.data.as_str());
        if let Some(name) = &self.key_name {
            out.push_str(",\"keyName\":");
            push_str(&mut out, name);
        }
        if let Some(id) = self.staff_id {
            out.push_str(",\"staffId\":");
            out.push_str(&id.to_string());
        }
        out.push('}');
        out
    }
}

/// `text` as a JSON string.
fn push_str(out: &mut String, text: &str) {
    // A string always encodes.
    out.push_str(&serde_json::to_string(text).unwrap_or_default());
}

/// An event's record as JSON text, each object's keys in byte order (as the events have
/// always carried it, see [`sorted_json`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventData(String);

impl EventData {
    /// The JSON of `record`.
    pub fn of<T: Serialize + ?Sized>(record: &T) -> Result<Self, serde_json::Error> {
        sorted_json::to_string(record).map(Self)
    }

    /// An event's data as stored, put back in the form it was written in (`null` if it is
    /// not JSON).
    pub fn from_stored(text: &str) -> Self {
        let value: serde_json::Value =
            serde_json::from_str(text).unwrap_or(serde_json::Value::Null);
        Self(value.to_string())
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serde_json::json;

    use super::{Event, EventData};

    /// The event as it was sent before its record was encoded once: derived, with the
    /// record as a `Value`.
    #[derive(Serialize)]
    struct AsItWas {
        #[serde(rename = "type")]
        kind: String,
        at: String,
        data: serde_json::Value,
        #[serde(rename = "keyName", skip_serializing_if = "Option::is_none")]
        key_name: Option<String>,
        #[serde(rename = "staffId", skip_serializing_if = "Option::is_none")]
        staff_id: Option<i64>,
    }

    #[test]
    fn an_event_is_sent_byte_for_byte_as_before() {
        let record = json!({"petId": 3, "quantity": 1, "name": "Rex \"the\" dog", "id": 9});
        for (key_name, staff_id) in [
            (None, None),
            (Some("Ann ✓".to_owned()), Some(4)),
            (Some("x".to_owned()), None),
        ] {
            let event = Event {
                id: 12,
                kind: "order.created".into(),
                at: "2026-05-01T10:00:00Z".into(),
                data: EventData::of(&record).unwrap(),
                key_name: key_name.clone(),
                staff_id,
            };
            let before = AsItWas {
                kind: event.kind.clone(),
                at: event.at.clone(),
                data: record.clone(),
                key_name,
                staff_id,
            };
            assert_eq!(event.to_json(), serde_json::to_string(&before).unwrap());
        }
    }

    #[test]
    fn stored_data_comes_back_in_the_form_it_was_written_in() {
        let data = EventData::of(&json!({"b": [1, 2], "a": null})).unwrap();
        assert_eq!(EventData::from_stored(data.as_str()), data);
        assert_eq!(
            EventData::from_stored("{\"b\": 1, \"a\" : 2}").as_str(),
            "{\"a\":2,\"b\":1}"
        );
        assert_eq!(EventData::from_stored("not json").as_str(), "null");
    }
}
