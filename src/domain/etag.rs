//! Strong entity tags for single records: a hash of the record's JSON form.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// The strong `ETag` of a record, quoted as HTTP wants it.
pub fn of<T: Serialize>(record: &T) -> String {
    of_bytes(&serde_json::to_vec(record).unwrap_or_default())
}

/// The strong `ETag` of a record already encoded as JSON.
pub fn of_bytes(json: &[u8]) -> String {
    let digest = Sha256::digest(json);
    format!("\"{}\"", hex::encode(&digest[..12]))
}

/// Whether an `If-Match` header value accepts the current tag (strong comparison).
pub fn matches(if_match: &str, current: &str) -> bool {
    if_match
        .split(',')
        .map(str::trim)
        .any(|tag| tag == "*" || tag == current)
}

/// Refuses a change when the client's `If-Match` does not accept the record as it is now.
pub fn check<T: Serialize>(if_match: Option<&str>, current: &T) -> Result<(), super::DomainError> {
    match if_match {
        Some(header) if !matches(header, &of(current)) => {
            Err(super::DomainError::PreconditionFailed)
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_change_with_the_record_and_match_exactly() {
        let a = of(&serde_json::json!({"id": 1, "name": "Rex"}));
        let b = of(&serde_json::json!({"id": 1, "name": "Max"}));
        assert_ne!(a, b);
        assert!(matches(&a, &a));
        assert!(matches(&format!("\"zzz\", {a}"), &a));
        assert!(matches("*", &a));
        assert!(!matches(&b, &a));
        assert!(!matches(&format!("W/{a}"), &a));
    }
}
