//! Where SQLite and PostgreSQL disagree, in one place. The store's SQL is written once in the
//! subset both accept (`IS DISTINCT FROM`, `ON CONFLICT … DO`, `RETURNING`, `LIKE … ESCAPE`,
//! integers for flags); what is left is here:
//!
//! - parameters: SQLite's `?N`, `?` and `+?` become PostgreSQL's `$N` ([`to_postgres`], once per
//!   statement text and connection, the prepared statement is cached);
//! - a write transaction: `BEGIN IMMEDIATE` on SQLite; on PostgreSQL `BEGIN` and the
//!   store-wide advisory lock [`WRITE_LOCK`], held to the commit, so the groups of several
//!   processes commit one after another (event ids commit in order; see `pg`);
//! - SQLite's two-argument `MAX(a, b)` is written `CASE WHEN a > b THEN a ELSE b END`, and a
//!   parameter is first used where its type shows (`at >= ?1 OR ?1 IS NULL`);
//! - text: PostgreSQL's cannot hold NUL (`pg` binds it as U+FFFD, which nothing stored has);
//! - the id of an inserted row: `last_insert_rowid()` on SQLite, `RETURNING id` on
//!   PostgreSQL ([`returning_id`]).
// Without the `postgres` feature the PostgreSQL half of the seam is unused.
#![cfg_attr(not(feature = "postgres"), allow(dead_code))]

/// The advisory lock every PostgreSQL write group holds until it commits.
pub const WRITE_LOCK: i64 = 0x5045_5453_0001;
/// The advisory lock held while migrating a PostgreSQL store and creating its first key.
pub const SETUP_LOCK: i64 = 0x5045_5453_0002;
/// The channel on which a commit with change events wakes every process's event follower.
pub const EVENTS_CHANNEL: &str = "petstore_events";

/// Rewrites SQLite placeholders (`?N`, `?`) to PostgreSQL's (`$N`), leaving quoted text alone.
/// A bare `?` takes the number after the largest used so far, as in SQLite.
pub fn to_postgres(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut chars = sql.chars().peekable();
    let mut quote: Option<char> = None;
    let mut largest = 0u32;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            out.push(c);
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                out.push(c);
            }
            // SQLite's `+?` (a unary plus that keeps a LIMIT from being planned around its
            // value) is a bare parameter on PostgreSQL.
            '+' if chars.peek() == Some(&'?') => {}
            '?' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                    digits.push(d);
                    chars.next();
                }
                let n = match digits.parse::<u32>() {
                    Ok(n) => n,
                    Err(_) => largest + 1,
                };
                largest = largest.max(n);
                out.push('$');
                out.push_str(&n.to_string());
            }
            _ => out.push(c),
        }
    }
    out
}

/// An `INSERT` that also returns the new row's `id` (PostgreSQL).
pub fn returning_id(insert: &str) -> String {
    format!("{} RETURNING id", insert.trim_end().trim_end_matches(';'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_and_bare_placeholders_become_dollar_numbers_outside_quotes() {
        assert_eq!(
            to_postgres("SELECT a FROM t WHERE b = ?2 AND c = ?1 AND d LIKE '?x' ESCAPE '\\'"),
            "SELECT a FROM t WHERE b = $2 AND c = $1 AND d LIKE '?x' ESCAPE '\\'"
        );
        assert_eq!(
            to_postgres("x IN (?, ?, ?) LIMIT +? OFFSET +?"),
            "x IN ($1, $2, $3) LIMIT $4 OFFSET $5"
        );
    }
}
