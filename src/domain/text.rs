//! Bounds on the free-text fields: names, descriptions and reasons; and the one markup
//! escape the printed receipt (HTML) and the shelf labels (SVG) share.

use super::DomainError;

use crate::contract;

/// Longest name, in characters, as sent.
pub const NAME_MAX: usize = contract::NAME.max_usize();
/// Longest description, in characters, as sent.
pub const DESCRIPTION_MAX: usize = contract::DESCRIPTION.max_usize();
/// Longest stock-change reason, in characters, as sent.
pub const REASON_MAX: usize = contract::REASON.max_usize();

/// A name: 1 to [`NAME_MAX`] characters with one that is not white space, no control
/// characters; stored trimmed.
pub fn name(field: &str, raw: &str) -> Result<String, DomainError> {
    let text = checked(field, raw, NAME_MAX)?;
    if text.is_empty() {
        return Err(DomainError::invalid(field, "must not be empty"));
    }
    Ok(text.to_owned())
}

/// An optional description: up to [`DESCRIPTION_MAX`]; stored trimmed, and all white space
/// means none.
pub fn description(field: &str, raw: Option<&str>) -> Result<Option<String>, DomainError> {
    optional(field, raw, DESCRIPTION_MAX)
}

/// An optional reason for a stock change: up to [`REASON_MAX`]; stored trimmed, and all white
/// space means none.
pub fn reason(field: &str, raw: Option<&str>) -> Result<Option<String>, DomainError> {
    optional(field, raw, REASON_MAX)
}

/// Optional text of up to `max` characters; stored trimmed, and all white space means none.
pub fn optional(field: &str, raw: Option<&str>, max: usize) -> Result<Option<String>, DomainError> {
    let Some(raw) = raw else {
        return Ok(None);
    };
    let text = checked(field, raw, max)?;
    Ok((!text.is_empty()).then(|| text.to_owned()))
}

/// The text as it was sent, checked as the interface document states its bounds (no control
/// character but the tab, at most `max` characters), then trimmed. Checking what was sent
/// rather than what is left after trimming keeps the two in step: trimming removes line
/// breaks and U+0085 at the ends, and spaces beyond the bound, which the document refuses.
fn checked<'a>(field: &str, raw: &'a str, max: usize) -> Result<&'a str, DomainError> {
    if raw.chars().any(|c| c.is_control() && c != '\t') {
        return Err(DomainError::invalid(
            field,
            "must not contain control characters",
        ));
    }
    let chars = raw.chars().count();
    if chars > max {
        return Err(DomainError::invalid(
            field,
            format!("must be at most {max} characters (got {chars})"),
        ));
    }
    Ok(raw.trim())
}

/// The form of a name used for case-insensitive comparison and sorting.
pub fn fold(name: &str) -> String {
    name.to_lowercase()
}

/// `text` safe inside HTML or XML (SVG) character data and quoted attribute values: `&`, `<`,
/// `>`, `"` and `'` as references. The apostrophe is `&#39;`, which HTML and XML both read
/// (`&apos;` is XML's and HTML5's, not HTML 4's).
pub fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
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

    /// What the interface document refuses is refused, though trimming would remove it.
    #[test]
    fn text_is_checked_as_it_was_sent_then_trimmed() {
        assert!(name("name", "Rex\n").is_err());
        assert!(reason("note", Some("\u{85}Fish room")).is_err());
        assert!(name("name", &format!(" {}", "x".repeat(100))).is_err());
        assert_eq!(name("name", "\tRex").unwrap(), "Rex");
        assert_eq!(
            reason("note", Some(" Fish room ")).unwrap().as_deref(),
            Some("Fish room")
        );
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
