//! A PostgreSQL session for one thread of the store (the synchronous `postgres` client: each
//! of the store's threads owns its connection, as with SQLite), with its cache of prepared
//! statements and the conversions between the store's neutral values (rusqlite's `Value`)
//! and PostgreSQL's types. The schema uses `BIGINT` for every integer (flags included),
//! `DOUBLE PRECISION`, `TEXT` and `BYTEA`. An aggregate that PostgreSQL answers as `NUMERIC`
//! (`SUM`, `AVG`) is cast in the SQL (`CAST(SUM(x) AS BIGINT)`, as SQLite answers it); an
//! uncast one is refused with a message saying so.

use std::cell::RefCell;
use std::collections::HashMap;
use std::error::Error;
use std::fmt;
use std::sync::Arc;

use bytes::BytesMut;
use postgres::error::SqlState;
use postgres::types::{to_sql_checked, FromSql, IsNull, ToSql, Type};
use postgres::{Client, NoTls};
use rusqlite::types::{FromSql as LiteFromSql, Value, ValueRef};

use super::db::{DbError, DbResult};
use super::dialect;

/// A statement prepared on a session, with the store's text of it.
#[derive(Clone)]
pub struct Prepared {
    stmt: postgres::Statement,
    sql: Arc<str>,
}

/// A PostgreSQL error, as the seam's [`DbError::Pg`] carries it.
#[derive(Debug)]
pub struct PgError(pub postgres::Error);

impl fmt::Display for PgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_db_error() {
            Some(db) => write!(f, "PostgreSQL: {} ({})", db.message(), db.code().code()),
            None => write!(f, "PostgreSQL: {}", self.0),
        }
    }
}

impl Error for PgError {}

impl PgError {
    /// The error's SQLSTATE, when the server sent one.
    pub fn code(&self) -> Option<&SqlState> {
        self.0.code()
    }
}

fn wrap(err: postgres::Error) -> DbError {
    DbError::Pg(PgError(err))
}

/// One thread's connection to the database.
pub struct Session {
    url: String,
    read_only: bool,
    /// Inside a transaction opened by [`Session::batch`]: a dropped connection is then not
    /// replaced until the next `BEGIN`, so the writer sees its group undone.
    in_transaction: std::cell::Cell<bool>,
    client: RefCell<Client>,
    plain: RefCell<HashMap<String, Prepared>>,
    returning: RefCell<HashMap<String, Prepared>>,
}

impl Session {
    /// Connects to `url`; a reader's session refuses writes.
    pub fn connect(url: &str, read_only: bool) -> Result<Self, postgres::Error> {
        Ok(Self {
            url: url.to_owned(),
            read_only,
            in_transaction: std::cell::Cell::new(false),
            client: RefCell::new(Self::client_for(url, read_only)?),
            plain: RefCell::new(HashMap::new()),
            returning: RefCell::new(HashMap::new()),
        })
    }

    fn client_for(url: &str, read_only: bool) -> Result<Client, postgres::Error> {
        let mut client = Client::connect(url, NoTls)?;
        if read_only {
            client.batch_execute("SET default_transaction_read_only = on")?;
        }
        Ok(client)
    }

    /// The client, connected again first if the server dropped the connection (a restart
    /// of PostgreSQL): the request that met the drop failed, the next ones work. Statements
    /// prepared on the old connection are forgotten.
    fn client(&self) -> DbResult<std::cell::RefMut<'_, Client>> {
        if self.client.borrow().is_closed() {
            if self.in_transaction.get() {
                return Err(DbError::Lost);
            }
            let fresh = Self::client_for(&self.url, self.read_only).map_err(wrap)?;
            *self.client.borrow_mut() = fresh;
            self.plain.borrow_mut().clear();
            self.returning.borrow_mut().clear();
            tracing::info!("connected to PostgreSQL again");
        }
        Ok(self.client.borrow_mut())
    }

    /// The prepared statement of `sql` (with `RETURNING id` when `returning`), prepared on
    /// first use.
    pub fn statement(&self, sql: &str, returning: bool) -> DbResult<Prepared> {
        let cache = if returning {
            &self.returning
        } else {
            &self.plain
        };
        if let Some(stmt) = cache.borrow().get(sql) {
            return Ok(stmt.clone());
        }
        let mut text = dialect::to_postgres(sql);
        if returning {
            text = dialect::returning_id(&text);
        }
        let stmt = self.client()?.prepare(&text).map_err(wrap)?;
        let prepared = Prepared {
            stmt,
            sql: Arc::from(sql),
        };
        cache.borrow_mut().insert(sql.to_owned(), prepared.clone());
        Ok(prepared)
    }

    pub fn execute(&self, stmt: &Prepared, values: &[Value]) -> DbResult<usize> {
        let params = params(values);
        let refs = refs(&params);
        let changed = self.client()?.execute(&stmt.stmt, &refs).map_err(wrap)?;
        Ok(usize::try_from(changed).unwrap_or(usize::MAX))
    }

    /// Runs an `INSERT` with `RETURNING id` added: the new id.
    pub fn insert(&self, stmt: &Prepared, values: &[Value]) -> DbResult<i64> {
        let with_id = self.statement(&stmt.sql, true)?;
        let rows = self.query(&with_id, values)?;
        match rows.first() {
            Some(row) => column(row, 0),
            None => Err(DbError::NoRows),
        }
    }

    pub fn query(&self, stmt: &Prepared, values: &[Value]) -> DbResult<Vec<postgres::Row>> {
        let params = params(values);
        let refs = refs(&params);
        self.client()?.query(&stmt.stmt, &refs).map_err(wrap)
    }

    /// Statements without parameters, by the simple protocol.
    pub fn batch(&self, sql: &str) -> DbResult<()> {
        let begins = sql.starts_with("BEGIN");
        let ends = sql.ends_with("COMMIT") || sql == "ROLLBACK";
        if begins {
            self.in_transaction.set(false);
        }
        let done = self.client()?.batch_execute(sql).map_err(wrap);
        if begins {
            self.in_transaction.set(done.is_ok());
        } else if ends {
            self.in_transaction.set(false);
        }
        done
    }

    pub fn is_closed(&self) -> bool {
        self.client.borrow().is_closed()
    }

    /// Whether a notification came on a channel this session listens to (without waiting).
    pub fn drain_notifications(&self) -> DbResult<bool> {
        use postgres::fallible_iterator::FallibleIterator;
        let mut client = self.client.borrow_mut();
        let mut notifications = client.notifications();
        let mut pending = notifications.iter();
        let mut any = false;
        while pending.next().map_err(wrap)?.is_some() {
            any = true;
        }
        Ok(any)
    }
}

/// A value bound to a parameter of whatever type PostgreSQL inferred for it.
#[derive(Debug)]
struct Param<'a>(&'a Value);

fn params(values: &[Value]) -> Vec<Param<'_>> {
    values.iter().map(Param).collect()
}

fn refs<'a>(params: &'a [Param<'a>]) -> Vec<&'a (dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}

type BoxError = Box<dyn Error + Sync + Send>;

fn mismatch(value: &Value, ty: &Type) -> BoxError {
    format!("cannot bind {value:?} to a parameter of type {ty}").into()
}

impl ToSql for Param<'_> {
    fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
        match self.0 {
            Value::Null => Ok(IsNull::Yes),
            Value::Integer(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                // Exact for every integer the store holds (well under 2^53).
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
                    i.to_string().to_sql(&Type::TEXT, out)
                }
                _ => Err(mismatch(self.0, ty)),
            },
            Value::Real(f) => match *ty {
                Type::FLOAT8 => f.to_sql(ty, out),
                Type::FLOAT4 => (*f as f32).to_sql(ty, out),
                Type::INT8 if f.fract() == 0.0 => (*f as i64).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::UNKNOWN => {
                    f.to_string().to_sql(&Type::TEXT, out)
                }
                _ => Err(mismatch(self.0, ty)),
            },
            Value::Text(s) => match *ty {
                Type::INT8 => s.parse::<i64>()?.to_sql(ty, out),
                Type::INT4 => s.parse::<i32>()?.to_sql(ty, out),
                Type::FLOAT8 => s.parse::<f64>()?.to_sql(ty, out),
                Type::BYTEA => s.as_bytes().to_sql(ty, out),
                // PostgreSQL text cannot hold NUL, so no stored text has one: a NUL in a
                // search or a code matches nothing, as a character no text has.
                _ if s.contains('\0') => s
                    .replace('\0', "\u{FFFD}")
                    .as_str()
                    .to_sql(&Type::TEXT, out),
                _ => s.as_str().to_sql(&Type::TEXT, out),
            },
            Value::Blob(b) => match *ty {
                Type::BYTEA => b.as_slice().to_sql(ty, out),
                _ => Err(mismatch(self.0, ty)),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// Why a NUMERIC column is refused.
const UNCAST_NUMERIC: &str =
    "a NUMERIC column (an uncast SUM or AVG): cast it in the SQL, e.g. CAST(SUM(x) AS BIGINT)";

/// A column of any type the store reads, as a neutral value.
struct Column(Value);

impl<'a> FromSql<'a> for Column {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
        let value = match *ty {
            Type::INT8 => Value::Integer(i64::from_sql(ty, raw)?),
            Type::INT4 => Value::Integer(i32::from_sql(ty, raw)?.into()),
            Type::INT2 => Value::Integer(i16::from_sql(ty, raw)?.into()),
            Type::OID => Value::Integer(u32::from_sql(ty, raw)?.into()),
            Type::BOOL => Value::Integer(bool::from_sql(ty, raw)?.into()),
            Type::FLOAT8 => Value::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Value::Real(f32::from_sql(ty, raw)?.into()),
            // `SUM` and `AVG` answer NUMERIC: the SQL casts them (`CAST(SUM(..) AS BIGINT)`).
            Type::NUMERIC => return Err(UNCAST_NUMERIC.into()),
            Type::BYTEA => Value::Blob(raw.to_vec()),
            _ => Value::Text(std::str::from_utf8(raw)?.to_owned()),
        };
        Ok(Self(value))
    }

    fn from_sql_null(_: &Type) -> Result<Self, BoxError> {
        Ok(Self(Value::Null))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// Column `idx` of `row` as `T`, by rusqlite's conversions from the neutral value.
pub fn column<T: LiteFromSql>(row: &postgres::Row, idx: usize) -> DbResult<T> {
    let Column(value) = row.try_get::<_, Column>(idx).map_err(wrap)?;
    T::column_result(ValueRef::from(&value)).map_err(|e| {
        DbError::Sqlite(match e {
            rusqlite::types::FromSqlError::InvalidType => {
                rusqlite::Error::InvalidColumnType(idx, format!("{idx}"), value.data_type())
            }
            other => {
                rusqlite::Error::FromSqlConversionFailure(idx, value.data_type(), Box::new(other))
            }
        })
    })
}

/// Whether `err` says the PostgreSQL server cannot be reached now (down, starting up or
/// shutting down), rather than refusing us (a wrong password, no such database).
fn unreachable(err: &postgres::Error) -> bool {
    use postgres::error::SqlState;
    match err.code() {
        None => err.as_db_error().is_none(),
        Some(code) => [SqlState::CANNOT_CONNECT_NOW, SqlState::ADMIN_SHUTDOWN].contains(code),
    }
}

/// Waits until the PostgreSQL server at `url` can be reached, trying every
/// [`REACH_EVERY`] and saying so in the log (once, then every 30 s). Returns at once when it
/// answers, or refuses for any other reason (which opening the store then reports).
pub fn wait_until_reachable(url: &str, shown: &str) {
    // The client runs a small runtime of its own, which cannot start on an async worker
    // thread: try on a plain thread.
    let (url, shown) = (url.to_owned(), shown.to_owned());
    let _ = std::thread::spawn(move || wait_here(&url, &shown)).join();
}

fn wait_here(url: &str, shown: &str) {
    static SAID: crate::repeats::Repeats = crate::repeats::Repeats::new();
    loop {
        match Session::client_for(url, true) {
            Err(err) if unreachable(&err) => {
                if SAID.now().is_some() {
                    tracing::warn!(
                        store = %shown,
                        err = %PgError(err),
                        "the PostgreSQL database cannot be reached yet; trying again every 2 s"
                    );
                }
                std::thread::sleep(REACH_EVERY);
            }
            _ => return,
        }
    }
}

/// How often a server starting before its database tries it again.
const REACH_EVERY: std::time::Duration = std::time::Duration::from_secs(2);
