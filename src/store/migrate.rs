//! Schema migrations: `.sql` files embedded in the binary, applied in order, each in its own
//! transaction, and recorded in `schema_migrations`.

use rusqlite::{params, Connection, TransactionBehavior};

use super::StoreError;

/// Every migration, in the order it is applied. Never edit one that has shipped: add another.
const MIGRATIONS: &[(i64, &str, &str)] =
    &[(1, "init", include_str!("../../migrations/0001_init.sql"))];

/// Brings the database up to the newest schema. Refuses a database written by a newer
/// version of the program rather than guessing at it.
pub fn run(conn: &mut Connection) -> Result<(), StoreError> {
    conn.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    INTEGER PRIMARY KEY,
             name       TEXT NOT NULL,
             applied_at TEXT NOT NULL
         )",
    )?;
    let current: i64 = conn.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        [],
        |row| row.get(0),
    )?;
    let newest = MIGRATIONS.last().map_or(0, |m| m.0);
    if current > newest {
        return Err(StoreError::Internal(format!(
            "the store's schema is version {current}, newer than this program knows ({newest}); use a newer petstore"
        )));
    }
    for (version, name, sql) in MIGRATIONS.iter().filter(|m| m.0 > current) {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(sql)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
            params![version, name, crate::domain::time::now()],
        )?;
        tx.commit()?;
        tracing::info!(version, name, "applied migration");
    }
    Ok(())
}
