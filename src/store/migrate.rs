//! Schema migrations: `.sql` files embedded in the binary, applied in order and recorded in
//! `schema_migrations`.
//!
//! The whole run (reading the schema version, applying what is missing, recording it) is
//! one `BEGIN IMMEDIATE` transaction: a second program starting on the same file at the same
//! moment waits for the first, then finds the schema up to date. Nothing is half-applied.

use rusqlite::{params, Connection, TransactionBehavior};

use super::StoreError;

/// Every migration, in the order it is applied. Never edit one that has shipped: add another.
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "init", include_str!("../../migrations/0001_init.sql")),
    (
        2,
        "store_records",
        include_str!("../../migrations/0002_store_records.sql"),
    ),
    (8, "staff", include_str!("../../migrations/0008_staff.sql")),
];

/// The newest schema version this program knows.
pub fn newest() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.0)
}

/// Every schema version this program knows, in order (numbered apart, so not contiguous).
#[cfg(test)]
pub fn versions() -> Vec<i64> {
    MIGRATIONS.iter().map(|m| m.0).collect()
}

/// Brings the database up to the newest schema. Refuses a database written by a newer
/// version of the program rather than guessing at it.
pub fn run(conn: &mut Connection) -> Result<(), StoreError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
             version    INTEGER PRIMARY KEY,
             name       TEXT NOT NULL,
             applied_at TEXT NOT NULL
         )",
    )?;
    let current: i64 = tx.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_migrations",
        [],
        |row| row.get(0),
    )?;
    let newest = newest();
    if current > newest {
        return Err(StoreError::Internal(format!(
            "the store's schema is version {current}, newer than this program knows ({newest}); use a newer petstore"
        )));
    }
    // Each migration is applied once whatever its number: they are numbered apart, so one
    // with a lower number may arrive after a higher one has been applied.
    let applied: Vec<i64> = tx
        .prepare("SELECT version FROM schema_migrations")?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for (version, name, sql) in MIGRATIONS.iter().filter(|m| !applied.contains(&m.0)) {
        tx.execute_batch(sql)?;
        tx.execute(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?1, ?2, ?3)",
            params![version, name, crate::domain::time::now()],
        )?;
        tracing::info!(version, name, "applied migration");
    }
    tx.commit()?;
    Ok(())
}
