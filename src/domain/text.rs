//! Bounds on the free-text fields: names, descriptions and reasons.

use super::DomainError;

use crate::contract;

/// Longest name, in characters, after trimming.
pub const NAME_MAX: usize = contract::NAME.max_usize();
/// Longest description, in characters, after trimming.
pub const DESCRIPTION_MAX: usize = contract::DESCRIPTION.max_usize();
/// Longest stock-change reason, in characters, after trimming.
pub const REASON_MAX: usize = contract::REASON.max_usize();

/// A name: trimmed, 1 to [`NAME_MAX`] characters, no control characters.
pub fn name(field: &str, raw: &str) -> Result<String, DomainError> {
    bounded(field, raw, 1, NAME_MAX)
}

/// An optional description: trimmed, up to [`DESCRIPTION_MAX`]; empty means none.
pub fn description(field: &str, raw: Option<&str>) -> Result<Option<String>, DomainError> {
    optional(field, raw, DESCRIPTION_MAX)
}

/// An optional reason for a stock change: trimmed, up to [`REASON_MAX`]; empty means none.
pub fn reason(field: &str, raw: Option<&str>) -> Result<Option<String>, DomainError> {
    optional(field, raw, REASON_MAX)
}

fn optional(field: &str, raw: Option<&str>, max: usize) -> Result<Option<String>, DomainError> {
    match raw.map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => bounded(field, text, 1, max).map(Some),
    }
}

fn bounded(field: &str, raw: &str, min: usize, max: usize) -> Result<String, DomainError> {
    let text = raw.trim();
    let chars = text.chars().count();
    if chars < min {
        return Err(DomainError::invalid(field, "must not be empty"));
    }
    if chars > max {
        return Err(DomainError::invalid(
            field,
            format!("must be at most {max} characters (got {chars})"),
        ));
    }
    if text.chars().any(|c| c.is_control() && c != '\t') {
        return Err(DomainError::invalid(
            field,
            "must not contain control characters",
        ));
    }
    Ok(text.to_owned())
}

/// The form of a name used for case-insensitive comparison and sorting.
pub fn fold(name: &str) -> String {
    name.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(name("name", "  Rex ").unwrap(), "Rex");
        assert!(name("name", "   ").is_err());
        assert!(name("name", &"x".repeat(101)).is_err());
        assert!(name("name", &"é".repeat(100)).is_ok());
    }

    #[test]
    fn sql_looking_text_is_kept_verbatim() {
        let raw = "Robert'); DROP TABLE pets;--";
        assert_eq!(name("name", raw).unwrap(), raw);
    }

    #[test]
    fn empty_descriptions_mean_none() {
        assert_eq!(description("description", Some("  ")).unwrap(), None);
        assert_eq!(description("description", None).unwrap(), None);
    }
}
