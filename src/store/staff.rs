//! Staff members and their sign-in sessions.
//!
//! A member's PIN is kept as an Argon2id PHC string, hashed before the write reaches the
//! writer thread (hashing is slow on purpose and must not hold up other writes). A session
//! is stored as the SHA-256 of its secret, like a key, with the Unix second of its last use;
//! disabling a member or changing their PIN ends their open sessions in the same
//! transaction. Names are unique by
//! their index alone (its refusal is `duplicate_name`), so two writers cannot race past it.

use rusqlite::params;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::{on_unique, Call, Result, Store, Tx};
use crate::domain::key::Role;
use crate::domain::staff::{StaffMember, StaffPatch};
use crate::domain::{text, time, DomainError, Precondition};

const COLUMNS: &str = "id, name, role, created_at, disabled_at";

fn from_row(row: &Row<'_>) -> DbResult<StaffMember> {
    let role: String = row.get(2)?;
    Ok(StaffMember {
        id: row.get(0)?,
        name: row.get(1)?,
        role: Role::parse(&role).unwrap_or(Role::Readonly),
        created_at: row.get(3)?,
        disabled_at: row.get(4)?,
    })
}

/// Every member, disabled ones included, oldest first.
fn list(conn: &Connection) -> Result<Vec<StaffMember>> {
    let members = conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM staff_members ORDER BY id"))?
        .query_map([], from_row)?
        .collect::<DbResult<Vec<_>>>()?;
    Ok(members)
}

fn require(conn: &Connection, id: i64) -> Result<StaffMember> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM staff_members WHERE id = ?1"
    ))?
    .query_row([id], from_row)
    .optional()?
    .ok_or(
        DomainError::NotFound {
            kind: "staff member",
            id,
        }
        .into(),
    )
}

/// The member a name belongs to (compared case-insensitively), with the hash of their PIN.
pub(super) fn by_name(conn: &Connection, name: &str) -> Result<Option<(StaffMember, String)>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS}, pin_hash FROM staff_members WHERE name_fold = ?1"
        ))?
        .query_row([text::fold(name)], |row| Ok((from_row(row)?, row.get(5)?)))
        .optional()?)
}

/// Whether the store has any enabled member (the desktop then asks who is at the counter).
fn any_enabled(conn: &Connection) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM staff_members WHERE disabled_at IS NULL LIMIT 1")?
        .exists([])?)
}

/// Enabled admin members, `except` one (0 for none).
fn enabled_admins(conn: &Connection, except: i64) -> Result<i64> {
    Ok(conn
        .prepare_cached(
            "SELECT COUNT(*) FROM staff_members
             WHERE role = 'admin' AND disabled_at IS NULL AND id != ?1",
        )?
        .query_row([except], |row| row.get(0))?)
}

/// Stores a new member with the hash of their PIN.
fn insert(tx: &Tx<'_>, name: &str, role: Role, pin_hash: &str) -> Result<StaffMember> {
    let created_at = time::now();
    let id = on_unique(
        tx.prepare_cached(
            "INSERT INTO staff_members (name, name_fold, role, pin_hash, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .insert(params![
            name,
            text::fold(name),
            role.as_str(),
            pin_hash,
            created_at
        ]),
        || DomainError::DuplicateStaffName(name.to_owned()),
    )?;
    require(tx, id)
}

/// Changes a member (`pin_hash` is the new PIN's hash, when the patch has one). Disabling
/// the member or changing their PIN ends their sessions.
fn update(
    tx: &Tx<'_>,
    id: i64,
    patch: &StaffPatch,
    pin_hash: Option<&str>,
    pre: &Precondition,
) -> Result<StaffMember> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    let other_admins = enabled_admins(tx, id)?;
    let now = time::now();
    let after = patch.apply(&current, other_admins, &now)?;
    on_unique(
        tx.execute(
            "UPDATE staff_members SET name = ?2, name_fold = ?3, role = ?4, disabled_at = ?5,
             pin_hash = COALESCE(?6, pin_hash) WHERE id = ?1",
            params![
                id,
                after.name,
                text::fold(&after.name),
                after.role.as_str(),
                after.disabled_at,
                pin_hash
            ],
        ),
        || DomainError::DuplicateStaffName(after.name.clone()),
    )?;
    if !after.is_enabled() || pin_hash.is_some() {
        tx.execute(
            "UPDATE staff_sessions SET ended_at = ?2 WHERE staff_id = ?1 AND ended_at IS NULL",
            params![id, now],
        )?;
    }
    require(tx, id)
}

/// A session that may still be used: its id, the member and the Unix second of its last use.
pub struct OpenSession {
    pub id: i64,
    pub secret_hash: String,
    pub member: StaffMember,
    pub last_used: i64,
}

/// Opens a session for a member; answers its id. Sessions unused since `idle_before` are
/// marked ended on the way, so the open ones stay few.
pub(super) fn open_session(
    tx: &Tx<'_>,
    staff_id: i64,
    secret_hash: &str,
    now: i64,
    idle_before: i64,
) -> Result<i64> {
    tx.execute(
        "UPDATE staff_sessions SET ended_at = ?2 WHERE ended_at IS NULL AND last_used < ?1",
        params![idle_before, time::now()],
    )?;
    Ok(tx
        .prepare_cached(
            "INSERT INTO staff_sessions (staff_id, secret_hash, created_at, last_used)
             VALUES (?1, ?2, ?3, ?4)",
        )?
        .insert(params![staff_id, secret_hash, time::now(), now])?)
}

/// Ends a session; ending an ended one changes nothing.
fn end_session(tx: &Tx<'_>, session_id: i64) -> Result<()> {
    tx.execute(
        "UPDATE staff_sessions SET ended_at = ?2 WHERE id = ?1 AND ended_at IS NULL",
        params![session_id, time::now()],
    )?;
    Ok(())
}

/// Sessions not ended, of enabled members (whether one has gone idle is checked when it is
/// used).
fn open_sessions(conn: &Connection) -> Result<Vec<OpenSession>> {
    let sessions = conn
        .prepare_cached(
            "SELECT m.id, m.name, m.role, m.created_at, m.disabled_at,
                    s.id, s.secret_hash, s.last_used
             FROM staff_sessions s JOIN staff_members m ON m.id = s.staff_id
             WHERE s.ended_at IS NULL AND m.disabled_at IS NULL",
        )?
        .query_map([], |row| {
            Ok(OpenSession {
                member: from_row(row)?,
                id: row.get(5)?,
                secret_hash: row.get(6)?,
                last_used: row.get(7)?,
            })
        })?
        .collect::<DbResult<Vec<_>>>()?;
    Ok(sessions)
}

/// Records when sessions were last used (session id, Unix seconds).
fn touch_sessions(tx: &Tx<'_>, uses: &[(i64, i64)]) -> Result<()> {
    let mut update = tx.prepare_cached(
        "UPDATE staff_sessions SET last_used = CASE WHEN last_used > ?2 THEN last_used ELSE ?2 END
             WHERE id = ?1",
    )?;
    for (id, at) in uses {
        update.execute(params![id, at])?;
    }
    Ok(())
}

/// Staff members and their sessions: `store.staff()`. PINs arrive already hashed.
pub struct Staff<'s>(pub(super) &'s Store);

impl<'s> Staff<'s> {
    /// Every member, disabled ones included, oldest first.
    pub fn list(&self) -> Call<'s, Vec<StaffMember>> {
        Call::read(self.0, list)
    }

    /// One member, disabled or not; `not_found` when there is none with this id.
    pub fn get(&self, id: i64) -> Call<'s, StaffMember> {
        Call::read(self.0, move |c| require(c, id))
    }

    /// Whether the store has any enabled member.
    pub fn any_enabled(&self) -> Call<'s, bool> {
        Call::read(self.0, any_enabled)
    }

    /// Adds a member.
    pub fn create(&self, name: String, role: Role, pin_hash: String) -> Call<'s, StaffMember> {
        Call::write(self.0, move |tx| insert(tx, &name, role, &pin_hash))
    }

    /// Changes a member under `pre`; disabling or a new PIN ends their sessions.
    pub fn update(
        &self,
        id: i64,
        patch: StaffPatch,
        pin_hash: Option<String>,
        pre: Precondition,
    ) -> Call<'s, StaffMember> {
        Call::write(self.0, move |tx| {
            update(tx, id, &patch, pin_hash.as_deref(), &pre)
        })
    }

    /// Ends a session.
    pub fn end_session(&self, session_id: i64) -> Call<'s, ()> {
        Call::write(self.0, move |tx| end_session(tx, session_id))
    }

    /// The sessions not ended, of enabled members.
    pub fn open_sessions(&self) -> Call<'s, Vec<OpenSession>> {
        Call::read(self.0, open_sessions)
    }

    /// Records when sessions were last used: `(session id, Unix seconds)`.
    pub fn touch_sessions(&self, uses: Vec<(i64, i64)>) -> Call<'s, ()> {
        Call::write(self.0, move |tx| touch_sessions(tx, &uses))
    }
}
