//! A store made by the first petstore, on either engine (PostgreSQL when the suite runs
//! there), is brought up to this program's schema when it is opened: every migration in
//! `migrations/` is applied once, in order, by the store's one migration runner, and what the
//! shop had is kept.

use std::path::{Path, PathBuf};

use petstore::store::Store;

use crate::support::new_store_location;

/// The migrations in the repository for SQLite (`migrations/`) or PostgreSQL
/// (`migrations/postgres/`): each file's version and path, in order.
fn migrations(postgres: bool) -> Vec<(i64, PathBuf)> {
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    if postgres {
        dir.push("postgres");
    }
    let mut found: Vec<(i64, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name[..4].parse().unwrap(), path)
        })
        .collect();
    found.sort();
    found
}

/// A database as the test reaches it, beside the store: a SQLite file or a PostgreSQL one.
enum Raw {
    Lite(rusqlite::Connection),
    Pg(postgres::Client),
}

impl Raw {
    fn open(location: &Path) -> Self {
        let text = location.to_string_lossy();
        if text.starts_with("postgres") {
            Self::Pg(postgres::Client::connect(&text, postgres::NoTls).unwrap())
        } else {
            Self::Lite(rusqlite::Connection::open(location).unwrap())
        }
    }

    fn batch(&mut self, sql: &str) {
        match self {
            Self::Lite(conn) => conn.execute_batch(sql).unwrap(),
            Self::Pg(client) => client.batch_execute(sql).unwrap(),
        }
    }

    /// The integers of the first column of `sql`'s rows.
    fn numbers(&mut self, sql: &str) -> Vec<i64> {
        match self {
            Self::Lite(conn) => conn
                .prepare(sql)
                .unwrap()
                .query_map([], |row| row.get(0))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap(),
            Self::Pg(client) => client
                .query(sql, &[])
                .unwrap()
                .iter()
                .map(|row| row.get(0))
                .collect(),
        }
    }
}

#[test]
fn a_store_made_by_the_first_petstore_is_upgraded_once_on_either_engine_keeping_its_pets_stock_and_orders(
) {
    let dir = tempfile::tempdir().unwrap();
    let location = new_store_location(&dir);
    let postgres = location.to_string_lossy().starts_with("postgres");
    let on_disk = migrations(postgres);
    // The store as the first petstore left it: its first two migrations, recorded, and a
    // shop's data.
    {
        let mut old = Raw::open(&location);
        let integer = if postgres { "BIGINT" } else { "INTEGER" };
        old.batch(&format!(
            "CREATE TABLE schema_migrations (
                 version {integer} PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL
             )"
        ));
        for (version, path) in on_disk.iter().filter(|(v, _)| *v <= 2) {
            old.batch(&std::fs::read_to_string(path).unwrap());
            old.batch(&format!(
                "INSERT INTO schema_migrations (version, name, applied_at)
                 VALUES ({version}, 'early', '2025-01-01T00:00:00Z')"
            ));
        }
        old.batch(
            "INSERT INTO categories (name, name_fold) VALUES ('Dogs', 'dogs');
             INSERT INTO pets (name, name_fold, category_id, status)
             VALUES ('Rex', 'rex', 1, 'available');
             INSERT INTO inventory (pet_id, quantity) VALUES (1, 3);
             INSERT INTO stock_changes (pet_id, delta, quantity_after, source, at)
             VALUES (1, 3, 3, 'set', '2025-01-01T00:00:00Z');
             INSERT INTO orders (pet_id, quantity, created_at)
             VALUES (1, 1, '2025-01-02T00:00:00Z');",
        );
    }
    let all: Vec<i64> = on_disk.iter().map(|(v, _)| *v).collect();
    assert!(all.len() > 2, "{all:?}");

    // Opened twice: the first opening applies every later migration, the second none.
    for _ in 0..2 {
        let store = Store::open(&location).unwrap();
        let rex = store.pets().get(1).wait().unwrap();
        assert_eq!(rex.name, "Rex");
        store.close();
        let mut raw = Raw::open(&location);
        assert_eq!(
            raw.numbers("SELECT version FROM schema_migrations ORDER BY version"),
            all
        );
        assert_eq!(
            raw.numbers("SELECT quantity FROM inventory WHERE pet_id = 1"),
            [3]
        );
        assert_eq!(raw.numbers("SELECT pet_id FROM orders"), [1]);
        assert_eq!(raw.numbers("SELECT delta FROM stock_changes"), [3]);
    }
}
