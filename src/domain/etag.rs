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

/// The condition a change is made under: none, or "only if the record's tag is one of
/// these" (`*` accepts any record that exists). The API parses it from `If-Match`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Precondition {
    /// No condition: the change applies to the record as it is.
    #[default]
    None,
    /// The change applies only while the record's tag is one of these.
    OneOf(Vec<String>),
}

impl Precondition {
    /// Whether a record whose tag is `current` may be changed.
    pub fn accepts(&self, current: &str) -> bool {
        match self {
            Self::None => true,
            Self::OneOf(tags) => tags.iter().any(|tag| tag == "*" || tag == current),
        }
    }

    /// Refuses a change when the record as it is now does not meet the condition.
    pub fn check<T: Serialize>(&self, current: &T) -> Result<(), super::DomainError> {
        match self {
            Self::None => Ok(()),
            Self::OneOf(_) if self.accepts(&of(current)) => Ok(()),
            Self::OneOf(_) => Err(super::DomainError::PreconditionFailed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_change_with_the_record_and_match_exactly() {
        let a = of(&serde_json::json!({"id": 1, "name": "Rex"}));
        let b = of(&serde_json::json!({"id": 1, "name": "Max"}));
        let one_of =
            |tags: &[&str]| Precondition::OneOf(tags.iter().map(|t| t.to_string()).collect());
        assert_ne!(a, b);
        assert!(Precondition::None.accepts(&a));
        assert!(one_of(&[&a]).accepts(&a));
        assert!(one_of(&["\"zzz\"", &a]).accepts(&a));
        assert!(one_of(&["*"]).accepts(&a));
        assert!(!one_of(&[&b]).accepts(&a));
        assert!(!one_of(&[&format!("W/{a}")]).accepts(&a));
    }
}
