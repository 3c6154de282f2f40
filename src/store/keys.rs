//! API keys: stored with a hash of their secret, never the secret itself.

use rusqlite::params;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::{Call, Result, Store, Tx};
use crate::domain::key::{KeyPatchInput, KeyRecord, NewKey, Role};
use crate::domain::{time, DomainError};
use crate::limits::{Plan, Quota};

const COLUMNS: &str =
    "id, name, role, plan, per_minute, per_day, prefix, created_at, last_used_at, revoked_at";

/// A key's role, plan and own quota as stored, from the four columns `role, plan,
/// per_minute, per_day` starting at `first`. An unreadable role or plan reads as the
/// weakest: a misread never gives a key more than it had.
pub(super) fn terms(row: &Row<'_>, first: usize) -> DbResult<(Role, Plan, Option<Quota>)> {
    let role: String = row.get(first)?;
    let plan: String = row.get(first + 1)?;
    let per_minute: Option<i64> = row.get(first + 2)?;
    let per_day: Option<i64> = row.get(first + 3)?;
    Ok((
        Role::parse(&role).unwrap_or(Role::Readonly),
        plan.parse().unwrap_or(Plan::Free),
        per_minute.zip(per_day).map(|(m, d)| Quota {
            per_minute: m.max(0) as u64,
            per_day: d.max(0) as u64,
        }),
    ))
}

fn from_row(row: &Row<'_>) -> DbResult<KeyRecord> {
    let (role, plan, custom) = terms(row, 2)?;
    Ok(KeyRecord {
        id: row.get(0)?,
        name: row.get(1)?,
        role,
        plan,
        custom,
        prefix: row.get(6)?,
        created_at: row.get(7)?,
        last_used_at: row.get(8)?,
        revoked_at: row.get(9)?,
    })
}

/// Stores a new key under the hash of its secret.
fn insert(tx: &Tx<'_>, new: &NewKey, prefix: &str, secret_hash: &str) -> Result<KeyRecord> {
    let created_at = time::now();
    let id = tx
        .prepare_cached(
            "INSERT INTO api_keys (name, role, plan, per_minute, per_day, prefix, secret_hash, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?
        .insert(params![
            new.name,
            new.role.as_str(),
            new.plan.as_str(),
            new.custom.map(|q| q.per_minute as i64),
            new.custom.map(|q| q.per_day as i64),
            prefix,
            secret_hash,
            created_at
        ])?;
    Ok(KeyRecord {
        id,
        name: new.name.clone(),
        role: new.role,
        plan: new.plan,
        custom: new.custom,
        prefix: prefix.to_owned(),
        created_at,
        last_used_at: None,
        revoked_at: None,
    })
}

/// Every key, revoked ones included, oldest first.
fn list(conn: &Connection) -> Result<Vec<KeyRecord>> {
    let keys = conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM api_keys ORDER BY id"))?
        .query_map([], from_row)?
        .collect::<DbResult<Vec<_>>>()?;
    Ok(keys)
}

fn require(conn: &Connection, id: i64) -> Result<KeyRecord> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM api_keys WHERE id = ?1"))?
        .query_row([id], from_row)
        .optional()?
        .ok_or(DomainError::NotFound { kind: "key", id }.into())
}

/// The keys that may be used, with the hashes of their secrets.
fn active(conn: &Connection) -> Result<Vec<(String, KeyRecord)>> {
    let keys = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS}, secret_hash FROM api_keys WHERE revoked_at IS NULL"
        ))?
        .query_map([], |row| Ok((row.get(10)?, from_row(row)?)))?
        .collect::<DbResult<Vec<_>>>()?;
    Ok(keys)
}

/// Whether the store has any key at all (an empty store gets its first admin key).
fn any(conn: &Connection) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM api_keys LIMIT 1")?
        .exists([])?)
}

/// Refuses a change that would leave no active admin key: the last one can neither be
/// revoked nor lose its role. Staff members' sessions are not keys and do not count.
fn keep_an_admin(tx: &Tx<'_>, current: &KeyRecord, stays_admin: bool) -> Result<()> {
    if current.role != Role::Admin || current.revoked_at.is_some() || stays_admin {
        return Ok(());
    }
    let others: i64 = tx
        .prepare_cached(
            "SELECT COUNT(*) FROM api_keys WHERE role = 'admin' AND revoked_at IS NULL AND id != ?1",
        )?
        .query_row([current.id], |row| row.get(0))?;
    if others == 0 {
        return Err(DomainError::LastAdmin(
            "this is the last active admin key: it can be neither revoked nor given another role; make another admin key first",
        )
        .into());
    }
    Ok(())
}

fn update(tx: &Tx<'_>, id: i64, new: &NewKey) -> Result<KeyRecord> {
    let current = require(tx, id)?;
    keep_an_admin(tx, &current, new.role == Role::Admin)?;
    tx.execute(
        "UPDATE api_keys SET name = ?2, role = ?3, plan = ?4, per_minute = ?5, per_day = ?6 WHERE id = ?1",
        params![
            id,
            new.name,
            new.role.as_str(),
            new.plan.as_str(),
            new.custom.map(|q| q.per_minute as i64),
            new.custom.map(|q| q.per_day as i64)
        ],
    )?;
    require(tx, id)
}

/// Revokes a key; revoking a revoked key changes nothing.
fn revoke(tx: &Tx<'_>, id: i64) -> Result<KeyRecord> {
    let current = require(tx, id)?;
    keep_an_admin(tx, &current, false)?;
    tx.execute(
        "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![id, time::now()],
    )?;
    require(tx, id)
}

/// Records when keys were last used.
pub(super) fn touch_uses(tx: &Tx<'_>, uses: &[(i64, String)]) -> Result<()> {
    let mut update = tx.prepare_cached("UPDATE api_keys SET last_used_at = ?2 WHERE id = ?1")?;
    for (id, at) in uses {
        update.execute(params![id, at])?;
    }
    Ok(())
}

/// Creates the first admin key, unless the store has a key already. The check and the
/// insert run in one write transaction, so two programs starting on a new store at once
/// make one admin key between them. Whether this call made it.
fn insert_first(tx: &Tx<'_>, new: &NewKey, prefix: &str, secret_hash: &str) -> Result<bool> {
    if any(tx)? {
        return Ok(false);
    }
    insert(tx, new, prefix, secret_hash)?;
    Ok(true)
}

/// API keys: `store.keys()`. Secrets never reach the store: only their prefix and hash.
pub struct Keys<'s>(pub(super) &'s Store);

impl<'s> Keys<'s> {
    /// Every key, revoked ones included, oldest first.
    pub fn list(&self) -> Call<'s, Vec<KeyRecord>> {
        Call::read(self.0, list)
    }

    /// The key, or `not_found`.
    pub fn get(&self, id: i64) -> Call<'s, KeyRecord> {
        Call::read(self.0, move |c| require(c, id))
    }

    /// The keys that may be used, with the hashes of their secrets.
    pub fn active(&self) -> Call<'s, Vec<(String, KeyRecord)>> {
        Call::read(self.0, active)
    }

    /// Stores a new key under its secret's prefix and hash.
    pub fn create(&self, new: NewKey, prefix: String, secret_hash: String) -> Call<'s, KeyRecord> {
        Call::write(self.0, move |tx| insert(tx, &new, &prefix, &secret_hash))
    }

    /// Stores the first admin key of an empty store; `false` when the store has keys.
    pub fn create_first(&self, new: NewKey, prefix: String, secret_hash: String) -> Call<'s, bool> {
        Call::write(self.0, move |tx| {
            insert_first(tx, &new, &prefix, &secret_hash)
        })
    }

    /// Applies an admin's change to a key.
    pub fn update(&self, id: i64, patch: KeyPatchInput) -> Call<'s, KeyRecord> {
        Call::write(self.0, move |tx| {
            let current = require(tx, id)?;
            let new = patch.apply(&current)?;
            update(tx, id, &new)
        })
    }

    /// Revokes a key; revoking a revoked key changes nothing.
    pub fn revoke(&self, id: i64) -> Call<'s, KeyRecord> {
        Call::write(self.0, move |tx| revoke(tx, id))
    }

    /// Records when keys were last used: `(key id, RFC 3339 time)`.
    pub fn touch(&self, uses: Vec<(i64, String)>) -> Call<'s, ()> {
        Call::write(self.0, move |tx| touch_uses(tx, &uses))
    }
}
