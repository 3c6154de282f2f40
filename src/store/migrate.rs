//! Schema migrations: `.sql` files embedded in the binary, listed once in [`MIGRATIONS`] (each
//! step with its SQLite file and its PostgreSQL twin; adding a step is one line there),
//! applied in order by one runner for both engines ([`run`]) and recorded in
//! `schema_migrations`. A schema newer than the program's is refused with one error on
//! either engine ([`StoreError::NewerSchema`]).
//!
//! What differs between the engines is in `engine::migrating`: the lock that lets one
//! process migrate while the others wait (SQLite: the whole run is one `BEGIN IMMEDIATE`
//! transaction, so nothing is half-applied; PostgreSQL: an advisory lock, a transaction per
//! step), the table's integer type, and the Rust steps SQLite needs ([`STEPS`]).

use rusqlite::params;

use super::db::{Connection, DbResult};
use super::engine::migrating;
use super::StoreError;

/// One migration: its version, and its file of SQL for each engine, named once:
/// `migrations/NNNN_name.sql` for SQLite and its twin `migrations/postgres/NNNN_name.sql`
/// (64-bit identity ids; the SQLite steps' effects are in the twin itself).
struct Migration {
    version: i64,
    file: &'static str,
    sqlite: &'static str,
    postgres: &'static str,
}

impl Migration {
    /// The name recorded in `schema_migrations`: the file's name after its number.
    fn name(&self) -> &'static str {
        self.file
            .split_once('_')
            .map_or(self.file, |(_, name)| name)
    }
}

/// A [`Migration`] from its version and its file's name (without `.sql`), both engines' SQL
/// embedded; a missing twin does not compile.
macro_rules! migration {
    ($version:literal, $file:literal) => {
        Migration {
            version: $version,
            file: $file,
            sqlite: include_str!(concat!("../../migrations/", $file, ".sql")),
            postgres: include_str!(concat!("../../migrations/postgres/", $file, ".sql")),
        }
    };
}

/// Every migration, in the order it is applied. Never edit one that has shipped: add another.
#[rustfmt::skip]
const MIGRATIONS: &[Migration] = &[
    migration!(1, "0001_init"),
    migration!(2, "0002_store_records"),
    migration!(3, "0003_shop"),
    migration!(8, "0008_staff"),
    migration!(14, "0014_bans"),
    migration!(15, "0015_shared_sign_in_state"),
    migration!(16, "0016_orders_by_pet_covering"),
    migration!(17, "0017_idempotency_without_age_index"),
    migration!(18, "0018_stock_change_sources_without_a_list"),
    migration!(19, "0019_tax"),
    migration!(20, "0020_sales"),
    migration!(21, "0021_refunds"),
    migration!(22, "0022_shifts"),
    migration!(23, "0023_animals"),
    migration!(24, "0024_stockroom"),
    migration!(25, "0025_pet_statuses_without_a_list"),
    migration!(26, "0026_order_pet_names"),
];

/// Steps in Rust that run right after a migration's SQL on SQLite, in its transaction:
/// changes that plain SQL cannot make without knowing the table as it is.
const STEPS: &[(i64, Step)] = &[
    (3, widen_stock_change_sources),
    (18, compare_stock_change_sources),
    (21, allow_refund_source),
    (24, allow_received_source),
    (25, compare_pet_statuses),
];

/// A migration step written in Rust.
type Step = fn(&rusqlite::Connection) -> rusqlite::Result<()>;

/// Lets the stock history's `source` be `count` (a stocktake) and `import` (a CSV import).
fn widen_stock_change_sources(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    rebuild_rewritten(
        conn,
        "stock_changes",
        "'adjustment')",
        "'adjustment', 'count', 'import')",
    )
}

/// Checks the stock history's `source` with one comparison per value instead of an `IN`
/// list, which SQLite checks by building a temporary index on every insert (see
/// migrations/0018_stock_change_sources_without_a_list.sql). The values allowed are the same.
fn compare_stock_change_sources(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    rebuild_rewritten(
        conn,
        "stock_changes",
        "source IN ('order', 'cancel', 'set', 'adjustment', 'count', 'import')",
        "source = 'order' OR source = 'cancel' OR source = 'set' OR source = 'adjustment' \
         OR source = 'count' OR source = 'import'",
    )
}

/// Lets the stock history's `source` be `refund` (units a refund put back), one comparison
/// more beside the others (see migrations/0021_refunds.sql).
fn allow_refund_source(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    rebuild_rewritten(
        conn,
        "stock_changes",
        "OR source = 'import'",
        "OR source = 'import' OR source = 'refund'",
    )
}

/// Lets the stock history's `source` be `received` (units a purchase order brought in), one
/// comparison more beside the others (see migrations/0024_stockroom.sql).
fn allow_received_source(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    rebuild_rewritten(
        conn,
        "stock_changes",
        "OR source = 'refund'",
        "OR source = 'refund' OR source = 'received'",
    )
}

/// Checks a pet's `status` with one comparison per value instead of an `IN` list, which
/// SQLite checks by building a temporary index whenever a pet is written (see
/// migrations/0025_pet_statuses_without_a_list.sql). The values allowed are the same.
fn compare_pet_statuses(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    rewrite_in_place(
        conn,
        "pets",
        "status IN ('available', 'pending', 'sold')",
        "status = 'available' OR status = 'pending' OR status = 'sold'",
    )
}

/// The `CREATE` text of `table`, or `None` when it holds no `from` (already rewritten).
fn create_text_holding(
    conn: &rusqlite::Connection,
    table: &str,
    from: &str,
) -> rusqlite::Result<Option<String>> {
    let create: String = conn.query_row(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1",
        [table],
        |row| row.get(0),
    )?;
    Ok(create.contains(from).then_some(create))
}

/// Replaces `from` with `to` in the `CREATE` text of `table` where the table cannot be
/// rebuilt (another table refers to it `ON DELETE CASCADE`, so dropping it would delete
/// their rows). Only for a change every stored row already meets, such as a CHECK allowing
/// the same values written another way: SQLite's documented way edits the schema's text
/// through `writable_schema` and raises the schema version, so other connections read the
/// table again; `RESET` makes this one (the writer's, once migrated) read it again too.
/// Does nothing when the text holds no `from`, so a second run changes nothing.
fn rewrite_in_place(
    conn: &rusqlite::Connection,
    table: &str,
    from: &str,
    to: &str,
) -> rusqlite::Result<()> {
    let Some(create) = create_text_holding(conn, table, from)? else {
        return Ok(());
    };
    let version: i64 = conn.query_row("PRAGMA schema_version", [], |row| row.get(0))?;
    conn.execute_batch("PRAGMA writable_schema = ON")?;
    let rewritten = conn
        .execute(
            "UPDATE sqlite_master SET sql = ?1 WHERE type = 'table' AND name = ?2",
            params![create.replacen(from, to, 1), table],
        )
        .and_then(|_| conn.execute_batch(&format!("PRAGMA schema_version = {}", version + 1)));
    conn.execute_batch("PRAGMA writable_schema = RESET")?;
    rewritten
}

/// Rebuilds `table` from its own `CREATE` text with `from` replaced by `to` (SQLite cannot
/// alter a CHECK): every column (whichever migrations added them), every row and every index
/// is kept. Does nothing when the text holds no `from`, so a second run changes nothing.
fn rebuild_rewritten(
    conn: &rusqlite::Connection,
    table: &str,
    from: &str,
    to: &str,
) -> rusqlite::Result<()> {
    let Some(create) = create_text_holding(conn, table, from)? else {
        return Ok(());
    };
    let Some(open) = create.find('(') else {
        return Ok(());
    };
    let rebuilt = format!(
        "CREATE TABLE {table}_rebuilt {}",
        create[open..].replacen(from, to, 1)
    );
    let indexes: Vec<String> = conn
        .prepare(
            "SELECT sql FROM sqlite_master
             WHERE type = 'index' AND tbl_name = ?1 AND sql IS NOT NULL",
        )?
        .query_map([table], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    conn.execute_batch(&rebuilt)?;
    conn.execute_batch(&format!(
        "INSERT INTO {table}_rebuilt SELECT * FROM {table};
         DROP TABLE {table};
         ALTER TABLE {table}_rebuilt RENAME TO {table};"
    ))?;
    for index in indexes {
        conn.execute_batch(&index)?;
    }
    Ok(())
}

/// The newest schema version this program knows.
pub fn newest() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

/// Every schema version this program knows, in order (numbered apart, so not contiguous).
#[cfg(test)]
pub fn versions() -> Vec<i64> {
    MIGRATIONS.iter().map(|m| m.version).collect()
}

/// Refuses a schema `current` newer than this program knows, on either engine, with the one
/// error that says so.
fn refuse_newer(current: i64) -> Result<(), StoreError> {
    let known = newest();
    if current > known {
        return Err(StoreError::NewerSchema {
            found: current,
            known,
        });
    }
    Ok(())
}

/// Brings the database up to the newest schema, on either engine: the engine module says
/// how the run is locked, which table records it and how one step runs and is recorded
/// (`engine::migrating`). Refuses a database written by a newer version of the program
/// rather than guessing at it.
pub(super) fn run(conn: &Connection) -> Result<(), StoreError> {
    migrating::locked(conn, |conn| {
        conn.execute_batch(migrating::table(conn))?;
        let current: i64 = conn.query_row(
            "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
            [],
            |row| row.get(0),
        )?;
        refuse_newer(current)?;
        // Each migration is applied once whatever its number: they are numbered apart, so
        // one with a lower number may arrive after a higher one has been applied.
        let applied: Vec<i64> = conn
            .prepare_cached("SELECT version FROM schema_migrations")?
            .query_map([], |row| row.get(0))?
            .collect::<DbResult<_>>()?;
        for migration in MIGRATIONS.iter().filter(|m| !applied.contains(&m.version)) {
            let (version, name) = (migration.version, migration.name());
            let sqlite = |lite: &rusqlite::Connection| {
                lite.execute_batch(migration.sqlite)?;
                for (_, step) in STEPS.iter().filter(|s| s.0 == version) {
                    step(lite)?;
                }
                Ok(())
            };
            let record = |conn: &Connection| {
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
                    params![version, name, crate::domain::time::now()],
                )
                .map(|_| ())
            };
            migrating::apply(conn, sqlite, migration.postgres, record)?;
            tracing::info!(version, name, "applied migration");
        }
        Ok(())
    })
}

/// [`run`] on a SQLite connection of its own (a restore's staged copy, the new store it is
/// compared with), which is handed back as it was.
pub(super) fn run_sqlite(conn: &mut rusqlite::Connection) -> Result<(), StoreError> {
    let own = std::mem::replace(conn, rusqlite::Connection::open_in_memory()?);
    let db = Connection::Lite(own);
    let result = run(&db);
    if let Some(own) = db.into_lite() {
        *conn = own;
    }
    result
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use rusqlite::Connection;

    #[test]
    fn each_migration_file_is_numbered_with_its_version_and_versions_only_grow() {
        for pair in MIGRATIONS.windows(2) {
            assert!(pair[0].version < pair[1].version, "{}", pair[1].file);
        }
        for m in MIGRATIONS {
            assert_eq!(
                m.file[..4].parse::<i64>().ok(),
                Some(m.version),
                "{}",
                m.file
            );
            assert_eq!(m.file[4..5].to_owned() + m.name(), m.file[4..]);
        }
    }

    /// The names of the stock history's indexes, in order.
    fn history_indexes(conn: &Connection) -> Vec<String> {
        conn.prepare(
            "SELECT name FROM sqlite_master
             WHERE type = 'index' AND tbl_name = 'stock_changes' ORDER BY name",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
    }

    /// A new store in memory with every migration run.
    fn migrated() -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        run_sqlite(&mut conn).unwrap();
        conn
    }

    /// The steps SQLite's program for `sql` runs, by opcode (`EXPLAIN`'s second column).
    fn opcodes(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Vec<String> {
        conn.prepare(&format!("EXPLAIN {sql}"))
            .unwrap()
            .query_map(params, |r| r.get(1))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    }

    #[test]
    fn widening_the_history_sources_keeps_columns_rows_and_indexes_added_before_it() {
        let mut conn = Connection::open_in_memory().unwrap();
        // A store that got a later migration (a column and an index on the history) before
        // the shop's.
        conn.execute_batch(MIGRATIONS[0].sqlite).unwrap();
        conn.execute_batch(
            "ALTER TABLE stock_changes ADD COLUMN staff_id INTEGER;
             CREATE INDEX stock_changes_by_staff ON stock_changes(staff_id);
             INSERT INTO stock_changes (pet_id, delta, quantity_after, source, at, staff_id)
             VALUES (1, 5, 5, 'set', '2026-01-01T00:00:00Z', 7);",
        )
        .unwrap();
        let tx = conn.transaction().unwrap();
        widen_stock_change_sources(&tx).unwrap();
        widen_stock_change_sources(&tx).unwrap(); // a second run changes nothing
        tx.commit().unwrap();
        let staff: i64 = conn
            .query_row(
                "SELECT staff_id FROM stock_changes WHERE pet_id = 1",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(staff, 7);
        conn.execute(
            "INSERT INTO stock_changes (pet_id, delta, quantity_after, source, at)
             VALUES (1, -1, 4, 'count', 'x'), (1, 1, 5, 'import', 'x')",
            [],
        )
        .unwrap();
        assert!(conn
            .execute(
                "INSERT INTO stock_changes (pet_id, delta, quantity_after, source, at) VALUES (1, 1, 6, 'magic', 'x')",
                [],
            )
            .is_err());
        assert_eq!(
            history_indexes(&conn),
            ["stock_changes_by_pet", "stock_changes_by_staff"]
        );
    }

    /// SQLite checks an `IN` list of more than two values by building a temporary index on
    /// every run of the statement (`OpenEphemeral`); the stock history is written by every
    /// sale, so its CHECK compares one value at a time, and still refuses any other source.
    #[test]
    fn writing_the_stock_history_builds_no_temporary_index_and_still_checks_its_source() {
        let conn = migrated();
        let insert = "INSERT INTO stock_changes (pet_id, delta, quantity_after, source, at) \
                      VALUES (?1, ?2, ?3, ?4, ?5)";
        let steps = opcodes(&conn, insert, params![1, 1, 1, "order", "x"]);
        assert!(steps.iter().any(|op| op == "Insert"), "{steps:?}");
        assert!(!steps.iter().any(|op| op == "OpenEphemeral"), "{steps:?}");
        for source in [
            "order",
            "cancel",
            "set",
            "adjustment",
            "count",
            "import",
            "refund",
            "received",
        ] {
            conn.execute(insert, params![1, 1, 1, source, "x"]).unwrap();
        }
        assert!(conn
            .execute(insert, params![1, 1, 1, "magic", "x"])
            .is_err());
        assert_eq!(
            history_indexes(&conn),
            ["stock_changes_by_at", "stock_changes_by_pet"]
        );
    }

    /// The same for a pet: creating one, changing its status or selling its last unit
    /// writes its row, and SQLite checked the `IN` list of its status with a temporary
    /// index each time. Now no statement that writes a pet builds one, and the CHECK still
    /// allows the three statuses and none, and refuses any other.
    #[test]
    fn writing_a_pet_builds_no_temporary_index_and_still_checks_its_status() {
        let conn = migrated();
        conn.execute(
            "INSERT INTO categories (name, name_fold) VALUES ('Dogs', 'dogs')",
            [],
        )
        .unwrap();
        let insert = "INSERT INTO pets (name, name_fold, category_id, status) \
                      VALUES ('Rex', 'rex', 1, ?1)";
        for sql in [insert, "UPDATE pets SET status = ?1 WHERE id = 1"] {
            let steps = opcodes(&conn, sql, ["sold"]);
            assert!(steps.iter().any(|op| op == "Insert"), "{sql}: {steps:?}");
            assert!(
                !steps.iter().any(|op| op == "OpenEphemeral"),
                "{sql}: {steps:?}"
            );
        }
        for status in [Some("available"), Some("pending"), Some("sold"), None] {
            conn.execute(insert, [status]).unwrap();
        }
        assert!(conn.execute(insert, ["lost"]).is_err());
        assert!(conn
            .execute("UPDATE pets SET status = 'lost' WHERE id = 1", [])
            .is_err());
    }

    /// The pets' CHECK is rewritten in place, not by rebuilding the table: their stock refers
    /// to them `ON DELETE CASCADE` and the store runs with foreign keys on, so a rebuild
    /// would have deleted every pet's stock. A store upgraded from migration 24 keeps its
    /// pets, their stock and the pets' indexes, and passes SQLite's integrity check.
    #[test]
    fn upgrading_to_pet_statuses_without_a_list_keeps_every_pet_its_stock_and_its_indexes() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "foreign_keys", "ON").unwrap();
        let older = |m: &&Migration| m.version < 25;
        for m in MIGRATIONS.iter().filter(older) {
            conn.execute_batch(m.sqlite).unwrap();
            for (_, step) in STEPS.iter().filter(|s| s.0 == m.version) {
                step(&conn).unwrap();
            }
        }
        conn.execute_batch(
            "CREATE TABLE schema_migrations (
                 version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL
             );
             INSERT INTO categories (name, name_fold) VALUES ('Dogs', 'dogs');
             INSERT INTO pets (name, name_fold, category_id, status)
             VALUES ('Rex', 'rex', 1, 'available'), ('Tom', 'tom', 1, NULL);
             INSERT INTO inventory (pet_id, quantity) VALUES (1, 3), (2, 0);",
        )
        .unwrap();
        for m in MIGRATIONS.iter().filter(older) {
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?1, ?2, 'x')",
                params![m.version, m.name()],
            )
            .unwrap();
        }
        let objects = |conn: &Connection| -> Vec<(String, String)> {
            conn.prepare(
                "SELECT type, name FROM sqlite_master WHERE tbl_name IN ('pets', 'inventory')
                 ORDER BY type, name",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
        };
        let before = objects(&conn);
        let create = |conn: &Connection| -> String {
            conn.query_row(
                "SELECT sql FROM sqlite_master WHERE name = 'pets'",
                [],
                |r| r.get(0),
            )
            .unwrap()
        };
        assert!(create(&conn).contains("status IN ("));

        run_sqlite(&mut conn).unwrap();
        run_sqlite(&mut conn).unwrap(); // a second run changes nothing

        assert!(!create(&conn).contains("status IN ("), "{}", create(&conn));
        assert_eq!(objects(&conn), before);
        let stock: Vec<(i64, i64)> = conn
            .prepare("SELECT pet_id, quantity FROM inventory ORDER BY pet_id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(stock, [(1, 3), (2, 0)]);
        let integrity: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(integrity, "ok");
        assert!(conn
            .execute("UPDATE pets SET status = 'lost' WHERE id = 1", [])
            .is_err());
    }

    /// A schema newer than the program's is refused with the newer-schema error (the one runner
    /// serves PostgreSQL too), and nothing is applied.
    #[test]
    fn a_schema_from_a_newer_petstore_is_refused_with_the_newer_schema_error_and_left_as_it_is() {
        let mut conn = migrated();
        let future = newest() + 1;
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, 'future', 'x')",
            [future],
        )
        .unwrap();
        let schema = |conn: &Connection| -> Vec<String> {
            conn.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap()
        };
        let before = schema(&conn);
        match run_sqlite(&mut conn) {
            Err(StoreError::NewerSchema { found, known }) => {
                assert_eq!((found, known), (future, newest()));
            }
            other => panic!("expected the newer-schema error, got {other:?}"),
        }
        assert_eq!(schema(&conn), before);
        assert!(refuse_newer(newest()).is_ok());
    }

    /// Starting on such a file says which file, and why, in one sentence.
    #[test]
    fn opening_a_store_file_from_a_newer_petstore_is_refused_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.sqlite");
        crate::store::Store::open(&path).unwrap().close();
        Connection::open(&path)
            .unwrap()
            .execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, 'future', 'x')",
                [newest() + 1],
            )
            .unwrap();
        match crate::store::Store::open(&path) {
            Err(StoreError::Refused(message)) => {
                assert!(message.contains(&path.display().to_string()), "{message}");
                assert!(
                    message.contains(&format!(
                        "schema is version {}, newer than this program knows ({})",
                        newest() + 1,
                        newest()
                    )),
                    "{message}"
                );
            }
            Err(other) => panic!("expected a refusal, got {other:?}"),
            Ok(_) => panic!("a store from a newer petstore was opened"),
        }
    }
}
