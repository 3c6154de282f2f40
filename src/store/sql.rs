//! A small builder for the `WHERE` clauses of list queries, keeping values as parameters,
//! and the queries that tables of uniquely named records (categories, suppliers) share.

use rusqlite::types::Value;

use super::db::{Connection, DbResult, Row, Values};
use super::pages::{Pages, Tables};
use super::{Result, StoreError};
use crate::domain::query::{CategoryQuery, Page, Paged};
use crate::domain::text;

#[derive(Clone, Default)]
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
}

/// A list's query: what it selects from where, in which order, and which tables it reads.
pub struct ListSql<'a> {
    /// The columns; the first is the key when there is one.
    pub columns: &'a str,
    pub from: &'a str,
    /// The whole `ORDER BY`.
    pub order: &'a str,
    /// When the order is by one unique integer column alone: that column and whether it
    /// descends. Pages can then start right after a known row (`after`, or a remembered
    /// page end) instead of walking the rows before them.
    pub key: Option<(&'a str, bool)>,
    /// When the order is by one column and then `id` (the same way): that column, whether it
    /// descends, and what the records are called. An `after` cursor then starts after the
    /// cursor's record in that order (its record must still exist: a deleted one is
    /// `not_found`).
    pub then_id: Option<(&'a str, bool, &'static str)>,
    /// The tables the query reads (for what [`Pages`] may remember).
    pub tables: &'a [&'a str],
}

/// One page of `SELECT {columns} FROM {from} … ORDER BY {order}` under `filter`, and how
/// many rows the whole list has.
///
/// A page at an offset starts from where an earlier page ended when that is remembered at
/// the tables' current version, so following `next` links costs the same at any depth; the
/// total is counted once per version. `page.after` starts the page after the row with that
/// key (the key column must be the order's).
pub fn paged<T>(
    conn: &Connection,
    pages: &Pages,
    list: &ListSql<'_>,
    filter: &Filter,
    page: Page,
    mut map: impl FnMut(&Row<'_>) -> DbResult<T>,
) -> Result<Paged<T>> {
    let tables = Tables::of(list.tables);
    let version = pages.version(tables);
    let where_sql = filter.sql();
    let shape = version.map(|_| {
        format!(
            "{} {where_sql} {:?} {}",
            list.from, filter.params, list.order
        )
    });
    let remembered = |offset| match (&shape, version) {
        (Some(shape), Some(v)) => pages.start_before(shape, v, offset),
        _ => None,
    };
    // Where the page starts: after a key (the client's, or a remembered page end), then
    // `skip` rows on.
    // With `after`, `offset` counts on from the cursor.
    let (after, skip, jumped) = match (page.after, list.key) {
        (Some(after), Some(_)) => (Some(after), page.offset, false),
        (Some(after), None) => {
            return paged_after_in_order(conn, list, filter, page, after, map);
        }
        (None, Some(_)) if page.offset > 0 => match remembered(page.offset) {
            Some((at, key)) => (Some(key), page.offset - at, true),
            None => (None, page.offset, false),
        },
        (None, _) => (None, page.offset, false),
    };
    // Skipping rows with a key: read the row just before the page too, to remember where
    // this page starts.
    let peel = list.key.is_some() && skip > 0 && page.after.is_none();
    let (clauses_sql, mut params) = match (after, list.key) {
        (Some(after), Some((column, descending))) => {
            let op = if descending { "<" } else { ">" };
            let mut keyed = filter.clone();
            keyed.and(format!("{column} {op} ?"), [Value::Integer(after)]);
            (keyed.sql(), keyed.params)
        }
        _ => (where_sql.clone(), filter.params.clone()),
    };
    params.push(Value::Integer(page.limit + i64::from(peel)));
    params.push(Value::Integer(skip - i64::from(peel)));
    let keyed = list.key.is_some();
    let mut rows = conn
        .prepare_cached(&format!(
            "SELECT {} FROM {}{clauses_sql} ORDER BY {} LIMIT +? OFFSET +?",
            list.columns, list.from, list.order
        ))?
        .query_map(Values(&params), |row| {
            let key = if keyed { row.get::<_, i64>(0)? } else { 0 };
            Ok((key, map(row)?))
        })?
        .collect::<DbResult<Vec<_>>>()?;
    let mut starts = Vec::new();
    if peel && !rows.is_empty() {
        let (before, _) = rows.remove(0);
        starts.push((page.offset, before));
    }
    let fetched = rows.len() as i64;
    if keyed && page.after.is_none() && fetched == page.limit {
        if let Some((last, _)) = rows.last() {
            starts.push((page.offset + fetched, *last));
        }
    }
    let items: Vec<T> = rows.into_iter().map(|(_, item)| item).collect();
    // A short page that is not empty ends the list: its total is known without counting.
    let (total, counted) =
        if page.after.is_none() && fetched < page.limit && (fetched > 0 || page.offset == 0) {
            (page.offset + fetched, true)
        } else if let Some(total) = shape
            .as_deref()
            .zip(version)
            .and_then(|(shape, v)| pages.total(shape, v))
        {
            (total, false)
        } else {
            (count(conn, list, filter)?, true)
        };
    if let (Some(shape), Some(v)) = (&shape, version) {
        if pages.version(tables) == Some(v) {
            pages.learn(shape, v, &starts, counted.then_some(total));
        } else if jumped {
            // A commit landed while this page was read from a remembered start: read it
            // again the long way, so the answer is exactly the store's.
            return paged(conn, &Pages::new(false), list, filter, page, map);
        }
    }
    Ok(Paged { items, total })
}

/// A page starting after the record `after` in an order by a column and then `id`
/// ([`ListSql::then_id`]); `page.offset` counts on from it.
fn paged_after_in_order<T>(
    conn: &Connection,
    list: &ListSql<'_>,
    filter: &Filter,
    page: Page,
    after: i64,
    mut map: impl FnMut(&Row<'_>) -> DbResult<T>,
) -> Result<Paged<T>> {
    let Some((column, descending, kind)) = list.then_id else {
        return Err(StoreError::Internal(
            "this list's order cannot start after a record".into(),
        ));
    };
    let cursor: Option<Value> = conn
        .prepare_cached(&format!("SELECT {column} FROM {} WHERE id = ?", list.from))?
        .query_map([after], |row| row.get(0))?
        .next()
        .transpose()?;
    let Some(cursor) = cursor else {
        return Err(crate::domain::DomainError::NotFound { kind, id: after }.into());
    };
    let op = if descending { "<" } else { ">" };
    let mut keyed = filter.clone();
    keyed.and(
        format!("({column}, id) {op} (?, ?)"),
        [cursor, Value::Integer(after)],
    );
    let mut params = keyed.params.clone();
    params.extend([Value::Integer(page.limit), Value::Integer(page.offset)]);
    let items = conn
        .prepare_cached(&format!(
            "SELECT {} FROM {}{} ORDER BY {} LIMIT +? OFFSET +?",
            list.columns,
            list.from,
            keyed.sql(),
            list.order
        ))?
        .query_map(Values(&params), |row| map(row))?
        .collect::<DbResult<Vec<_>>>()?;
    Ok(Paged {
        items,
        total: count(conn, list, filter)?,
    })
}

/// How many rows the whole list has under `filter`.
fn count(conn: &Connection, list: &ListSql<'_>, filter: &Filter) -> Result<i64> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT COUNT(*) FROM {}{}",
            list.from,
            filter.sql()
        ))?
        .query_row(Values(filter.params()), |row| row.get(0))?)
}

/// One page of `table`, a table of uniquely named records (its folded name in `name_fold`),
/// in id order; `query.q` keeps the rows whose name contains it, case-insensitively.
pub fn paged_by_name<T>(
    conn: &Connection,
    pages: &Pages,
    table: &str,
    columns: &str,
    query: &CategoryQuery,
    map: impl FnMut(&Row<'_>) -> DbResult<T>,
) -> Result<Paged<T>> {
    let mut filter = Filter::default();
    if let Some(q) = &query.q {
        filter.and(
            "name_fold LIKE ? ESCAPE '\\'",
            [Value::Text(contains_pattern(&text::fold(q)))],
        );
    }
    let list = ListSql {
        columns,
        from: table,
        order: "id",
        key: Some(("id", false)),
        then_id: None,
        tables: &[table],
    };
    paged(conn, pages, &list, &filter, query.page, map)
}

/// Whether `table` has a row with this `id`.
pub fn exists(conn: &Connection, table: &str, id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached(&format!("SELECT 1 FROM {table} WHERE id = ?1"))?
        .exists([id])?)
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
