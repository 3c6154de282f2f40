//! The store's one seam between its SQL and the database engine: a [`Connection`] that is
//! either a SQLite connection (rusqlite) or, with the `postgres` cargo feature, a PostgreSQL
//! session. Every SQL text of the store is written once, in the subset both engines accept;
//! the few differences live in [`super::dialect`].
//!
//! The resource files keep rusqlite's shapes: `conn.prepare_cached(sql)?.query_row(params,
//! map)`, `.execute(params)`, `.query_map(..)`, `.optional()`. rusqlite's `ToSql`, `FromSql`,
//! `Value` and `Error` are the store's neutral parameter, column, value and error types. On
//! SQLite every call goes straight to rusqlite's cached statement (no string rewriting, no
//! per-row boxing); on PostgreSQL a statement text is rewritten (`?N` → `$N`) and prepared
//! once per connection, and parameters are converted to the types PostgreSQL inferred for
//! them.
//!
//! Every call answers the seam's own [`DbError`]: a SQLite error, a PostgreSQL error, a
//! PostgreSQL session lost inside its transaction, or no row where one was asked for.
//! [`super::StoreError`] reads each for what it means to the shop (busy, unavailable, a
//! clash); nothing is carried inside another engine's error.
// Without the `postgres` feature the PostgreSQL half of the seam is unused.
#![cfg_attr(not(feature = "postgres"), allow(dead_code))]

use rusqlite::types::FromSql;
use rusqlite::ToSql;

/// Why a call through the seam failed.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// SQLite refused, or a value did not convert (rusqlite's conversions serve both engines).
    #[error(transparent)]
    Sqlite(rusqlite::Error),
    /// PostgreSQL refused, or could not be reached.
    #[cfg(feature = "postgres")]
    #[error(transparent)]
    Pg(super::pg::PgError),
    /// The PostgreSQL connection was lost inside a transaction, which the server undid.
    #[cfg(feature = "postgres")]
    #[error("the connection to PostgreSQL was lost; the transaction was undone")]
    Lost,
    /// A statement asked for one row returned none.
    #[error("the query returned no rows")]
    NoRows,
    /// A parameter of a kind PostgreSQL does not take.
    #[error("a parameter kind PostgreSQL does not take")]
    Unsupported,
}

impl From<rusqlite::Error> for DbError {
    fn from(err: rusqlite::Error) -> Self {
        match err {
            rusqlite::Error::QueryReturnedNoRows => Self::NoRows,
            other => Self::Sqlite(other),
        }
    }
}

/// `Result` with [`DbError`].
pub type DbResult<T> = std::result::Result<T, DbError>;

/// `.optional()`: no row is `None` rather than an error (rusqlite's `OptionalExtension`, for
/// the seam's results).
pub trait OptionalExtension<T> {
    fn optional(self) -> DbResult<Option<T>>;
}

impl<T> OptionalExtension<T> for DbResult<T> {
    fn optional(self) -> DbResult<Option<T>> {
        match self {
            Ok(value) => Ok(Some(value)),
            Err(DbError::NoRows) => Ok(None),
            Err(err) => Err(err),
        }
    }
}

/// A connection owned by one thread of the store.
pub enum Connection {
    Lite(rusqlite::Connection),
    #[cfg(feature = "postgres")]
    Pg(Box<super::pg::Session>),
}

/// Parameters of a statement: what rusqlite's `params!`, `[a, b]` and `[]` give.
pub trait Args {
    /// The same parameters for rusqlite.
    type Lite: rusqlite::Params;
    fn lite(self) -> Self::Lite;
    /// The parameters as values, for PostgreSQL.
    fn values(self) -> DbResult<Vec<rusqlite::types::Value>>;
}

/// One parameter as an owned value.
pub fn value_of(param: &dyn ToSql) -> DbResult<rusqlite::types::Value> {
    use rusqlite::types::{ToSqlOutput, Value, ValueRef};
    match param.to_sql()? {
        ToSqlOutput::Borrowed(v) => Ok(match v {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Integer(i),
            ValueRef::Real(f) => Value::Real(f),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        }),
        ToSqlOutput::Owned(v) => Ok(v),
        _ => Err(DbError::Unsupported),
    }
}

impl<'a> Args for &'a [&'a dyn ToSql] {
    type Lite = Self;
    fn lite(self) -> Self {
        self
    }
    fn values(self) -> DbResult<Vec<rusqlite::types::Value>> {
        self.iter().map(|p| value_of(*p)).collect()
    }
}

impl Args for [&(dyn ToSql + Send + Sync); 0] {
    type Lite = Self;
    fn lite(self) -> Self {
        self
    }
    fn values(self) -> DbResult<Vec<rusqlite::types::Value>> {
        Ok(Vec::new())
    }
}

macro_rules! array_args {
    ($($n:literal)*) => {$(
        impl<T: ToSql> Args for [T; $n] {
            type Lite = Self;
            fn lite(self) -> Self {
                self
            }
            fn values(self) -> DbResult<Vec<rusqlite::types::Value>> {
                self.iter().map(|p| value_of(p)).collect()
            }
        }
    )*};
}
array_args!(1 2 3 4 5 6 7 8);

/// A list of values (the list queries' filters).
pub struct Values<'a>(pub &'a [rusqlite::types::Value]);

impl<'a> Args for Values<'a> {
    type Lite = rusqlite::ParamsFromIter<std::slice::Iter<'a, rusqlite::types::Value>>;
    fn lite(self) -> Self::Lite {
        rusqlite::params_from_iter(self.0.iter())
    }
    fn values(self) -> DbResult<Vec<rusqlite::types::Value>> {
        Ok(self.0.to_vec())
    }
}

impl Connection {
    /// Whether this is a PostgreSQL session.
    pub fn is_postgres(&self) -> bool {
        !matches!(self, Self::Lite(_))
    }

    /// The SQLite connection, when it is one (backups, checks and pragmas).
    pub fn lite(&self) -> Option<&rusqlite::Connection> {
        match self {
            Self::Lite(conn) => Some(conn),
            #[cfg(feature = "postgres")]
            Self::Pg(_) => None,
        }
    }

    /// The SQLite connection, when it is one, given back (to close it, or use it alone).
    pub fn into_lite(self) -> Option<rusqlite::Connection> {
        match self {
            Self::Lite(conn) => Some(conn),
            #[cfg(feature = "postgres")]
            Self::Pg(_) => None,
        }
    }

    /// The SQLite connection, when it is one, to change its settings.
    pub fn lite_mut(&mut self) -> Option<&mut rusqlite::Connection> {
        match self {
            Self::Lite(conn) => Some(conn),
            #[cfg(feature = "postgres")]
            Self::Pg(_) => None,
        }
    }

    /// The statement for `sql`, prepared once per connection.
    pub fn prepare_cached(&self, sql: &str) -> DbResult<Statement<'_>> {
        match self {
            Self::Lite(conn) => Ok(Statement::Lite(conn.prepare_cached(sql)?)),
            #[cfg(feature = "postgres")]
            Self::Pg(session) => session
                .statement(sql, false)
                .map(|s| Statement::Pg(session, s)),
        }
    }

    /// Runs one statement (prepared each time on SQLite, as rusqlite's `execute` does).
    pub fn execute(&self, sql: &str, args: impl Args) -> DbResult<usize> {
        match self {
            Self::Lite(conn) => Ok(conn.execute(sql, args.lite())?),
            #[cfg(feature = "postgres")]
            Self::Pg(_) => self.prepare_cached(sql)?.execute(args),
        }
    }

    /// The first row of one statement, mapped.
    pub fn query_row<T>(
        &self,
        sql: &str,
        args: impl Args,
        f: impl FnOnce(&Row<'_>) -> DbResult<T>,
    ) -> DbResult<T> {
        match self {
            Self::Lite(conn) => first_row(conn.prepare(sql)?.query(args.lite())?, f),
            #[cfg(feature = "postgres")]
            Self::Pg(_) => self.prepare_cached(sql)?.query_row(args, f),
        }
    }

    /// Runs statements without parameters (transaction control, schema).
    pub fn execute_batch(&self, sql: &str) -> DbResult<()> {
        match self {
            Self::Lite(conn) => Ok(conn.execute_batch(sql)?),
            #[cfg(feature = "postgres")]
            Self::Pg(session) => session.batch(sql),
        }
    }

    /// Whether no transaction is open (on PostgreSQL: whether the session is gone, which
    /// undid any transaction it had).
    pub fn is_autocommit(&self) -> bool {
        match self {
            Self::Lite(conn) => conn.is_autocommit(),
            #[cfg(feature = "postgres")]
            Self::Pg(session) => session.is_closed(),
        }
    }
}

/// The first of SQLite's `rows`, mapped by `f`; [`DbError::NoRows`] when there is none.
fn first_row<T>(
    mut rows: rusqlite::Rows<'_>,
    f: impl FnOnce(&Row<'_>) -> DbResult<T>,
) -> DbResult<T> {
    match rows.next()? {
        Some(row) => f(&Row::Lite(row)),
        None => Err(DbError::NoRows),
    }
}

/// A prepared statement of either engine.
pub enum Statement<'c> {
    Lite(rusqlite::CachedStatement<'c>),
    #[cfg(feature = "postgres")]
    Pg(&'c super::pg::Session, super::pg::Prepared),
}

impl Statement<'_> {
    /// Runs the statement: how many rows it changed.
    pub fn execute(&mut self, args: impl Args) -> DbResult<usize> {
        match self {
            Self::Lite(stmt) => Ok(stmt.execute(args.lite())?),
            #[cfg(feature = "postgres")]
            Self::Pg(session, stmt) => session.execute(stmt, &args.values()?),
        }
    }

    /// Runs an `INSERT` into a table with an `id` column: the new row's id.
    pub fn insert(&mut self, args: impl Args) -> DbResult<i64> {
        match self {
            Self::Lite(stmt) => Ok(stmt.insert(args.lite())?),
            #[cfg(feature = "postgres")]
            Self::Pg(session, stmt) => session.insert(stmt, &args.values()?),
        }
    }

    /// The first row, mapped; `QueryReturnedNoRows` when there is none.
    pub fn query_row<T>(
        &mut self,
        args: impl Args,
        f: impl FnOnce(&Row<'_>) -> DbResult<T>,
    ) -> DbResult<T> {
        match self {
            Self::Lite(stmt) => first_row(stmt.query(args.lite())?, f),
            #[cfg(feature = "postgres")]
            Self::Pg(session, stmt) => {
                let rows = session.query(stmt, &args.values()?)?;
                match rows.first() {
                    Some(row) => f(&Row::Pg(row)),
                    None => Err(DbError::NoRows),
                }
            }
        }
    }

    /// Every row, mapped.
    pub fn query_map<T, F>(&mut self, args: impl Args, f: F) -> DbResult<Mapped<'_, F>>
    where
        F: FnMut(&Row<'_>) -> DbResult<T>,
    {
        match self {
            Self::Lite(stmt) => Ok(Mapped::Lite(stmt.query(args.lite())?, f)),
            #[cfg(feature = "postgres")]
            Self::Pg(session, stmt) => {
                let rows = session.query(stmt, &args.values()?)?;
                Ok(Mapped::Pg(rows.into_iter(), f))
            }
        }
    }

    /// Whether the statement returns a row.
    pub fn exists(&mut self, args: impl Args) -> DbResult<bool> {
        match self {
            Self::Lite(stmt) => Ok(stmt.exists(args.lite())?),
            #[cfg(feature = "postgres")]
            Self::Pg(session, stmt) => Ok(!session.query(stmt, &args.values()?)?.is_empty()),
        }
    }
}

/// The rows of [`Statement::query_map`].
pub enum Mapped<'s, F> {
    Lite(rusqlite::Rows<'s>, F),
    #[cfg(feature = "postgres")]
    Pg(std::vec::IntoIter<postgres::Row>, F),
}

impl<T, F> Iterator for Mapped<'_, F>
where
    F: FnMut(&Row<'_>) -> DbResult<T>,
{
    type Item = DbResult<T>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Self::Lite(rows, f) => match rows.next() {
                Ok(Some(row)) => Some(f(&Row::Lite(row))),
                Ok(None) => None,
                Err(e) => Some(Err(e.into())),
            },
            #[cfg(feature = "postgres")]
            Self::Pg(rows, f) => rows.next().map(|row| f(&Row::Pg(&row))),
        }
    }
}

/// One row of a result, of either engine.
pub enum Row<'r> {
    Lite(&'r rusqlite::Row<'r>),
    #[cfg(feature = "postgres")]
    Pg(&'r postgres::Row),
}

impl Row<'_> {
    /// Column `idx` (from 0) as `T`, by rusqlite's conversions on both engines.
    pub fn get<I: Idx, T: FromSql>(&self, idx: I) -> DbResult<T> {
        let idx = idx.idx();
        match self {
            Self::Lite(row) => Ok(row.get(idx)?),
            #[cfg(feature = "postgres")]
            Self::Pg(row) => super::pg::column(row, idx),
        }
    }
}

/// A column's position (rusqlite's `RowIndex`, positions only).
pub trait Idx {
    fn idx(self) -> usize;
}

impl Idx for usize {
    fn idx(self) -> usize {
        self
    }
}
