//! The store profile's single row (absent until first changed: every value has a default).

use rusqlite::{params, OptionalExtension};

use super::db::Connection;
use super::{Call, Result, Store, Tx};
use crate::domain::profile::{ProfilePatch, StoreProfile};

/// The profile, defaults filled in.
pub(super) fn get(conn: &Connection) -> Result<StoreProfile> {
    let stored = conn
        .prepare_cached("SELECT name, currency, timezone FROM store_profile WHERE id = 1")?
        .query_row([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .optional()?;
    let (name, currency, timezone) = stored.unwrap_or((None, None, None));
    Ok(StoreProfile::from_stored(name, currency, timezone))
}

/// Changes the profile and announces it as `store.profile.updated`.
fn patch(tx: &mut Tx<'_>, patch: ProfilePatch) -> Result<StoreProfile> {
    let current = get(tx)?;
    let updated = patch.apply(&current);
    if updated == current {
        return Ok(current);
    }
    tx.prepare_cached(
        "INSERT INTO store_profile (id, name, currency, timezone) VALUES (1, ?1, ?2, ?3)
         ON CONFLICT (id) DO UPDATE SET name = ?1, currency = ?2, timezone = ?3",
    )?
    .execute(params![updated.name, updated.currency, updated.timezone])?;
    tx.emit("store.profile.updated", &updated)?;
    Ok(updated)
}

/// The store profile: `store.profile()`.
pub struct Profile<'s>(pub(super) &'s Store);

impl<'s> Profile<'s> {
    /// The profile, defaults filled in.
    pub fn get(&self) -> Call<'s, StoreProfile> {
        Call::read(self.0, get)
    }

    /// Changes the profile.
    pub fn patch(&self, change: ProfilePatch) -> Call<'s, StoreProfile> {
        Call::write(self.0, move |tx| patch(tx, change))
    }
}
