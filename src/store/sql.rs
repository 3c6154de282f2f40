//! A small builder for the `WHERE` clauses of list queries, keeping values as parameters.

use rusqlite::types::Value;
use rusqlite::{params_from_iter, Connection, Row};

use super::Result;
use crate::domain::query::{Page, Paged};

#[derive(Default)]
pub struct Filter {
    clauses: Vec<String>,
    params: Vec<Value>,
}

impl Filter {
    /// Adds a condition with `?` placeholders and the values they stand for.
    pub fn and(&mut self, clause: impl Into<String>, values: impl IntoIterator<Item = Value>) {
        self.clauses.push(clause.into());
        self.params.extend(values);
    }

    /// `column IN (?, ?, …)` over `values`.
    pub fn and_in(&mut self, column: &str, values: Vec<Value>) {
        let marks = vec!["?"; values.len()].join(", ");
        self.and(format!("{column} IN ({marks})"), values);
    }

    /// The `WHERE …` text, empty when there is no condition.
    pub fn sql(&self) -> String {
        if self.clauses.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", self.clauses.join(" AND "))
        }
    }

    pub fn params(&self) -> &[Value] {
        &self.params
    }

    /// The parameters followed by a page's limit and offset.
    pub fn params_with_page(&self, page: Page) -> Vec<Value> {
        let mut params = self.params.clone();
        params.push(Value::Integer(page.limit));
        params.push(Value::Integer(page.offset));
        params
    }
}

/// One page of `SELECT {columns} FROM {from} … ORDER BY {order}` under `filter`, and how
/// many rows the whole list has.
pub fn paged<T>(
    conn: &Connection,
    (columns, from, order): (&str, &str, &str),
    filter: &Filter,
    page: Page,
    map: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<Paged<T>> {
    let where_sql = filter.sql();
    let items = conn
        .prepare_cached(&format!(
            "SELECT {columns} FROM {from}{where_sql} ORDER BY {order} LIMIT ? OFFSET ?"
        ))?
        .query_map(params_from_iter(filter.params_with_page(page)), map)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let fetched = items.len() as i64;
    // A short page that is not empty ends the list: its total is known without counting.
    let total = if fetched < page.limit && (fetched > 0 || page.offset == 0) {
        page.offset + fetched
    } else {
        conn.prepare_cached(&format!("SELECT COUNT(*) FROM {from}{where_sql}"))?
            .query_row(params_from_iter(filter.params()), |row| row.get(0))?
    };
    Ok(Paged { items, total })
}

/// A `LIKE` pattern matching `needle` anywhere, with the wildcards in it escaped (`\`).
pub fn contains_pattern(needle: &str) -> String {
    format!("%{}", starts_pattern(needle))
}

/// A `LIKE` pattern matching text that starts with `needle`, wildcards escaped (`\`).
pub fn starts_pattern(needle: &str) -> String {
    let mut pattern = String::with_capacity(needle.len() + 1);
    for c in needle.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}
