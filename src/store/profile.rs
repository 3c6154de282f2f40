//! The store profile's single row (absent until first changed: every value has a default).

use rusqlite::params;

use super::db::{Connection, OptionalExtension};
use super::{Call, Result, Store, Tx};
use crate::domain::profile::{ProfilePatch, StoreProfile, StoredProfile};

/// The profile, defaults filled in.
pub(super) fn get(conn: &Connection) -> Result<StoreProfile> {
    let stored = conn
        .prepare_cached(
            "SELECT name, currency, timezone, tax_included, default_tax_rate
             FROM store_profile WHERE id = 1",
        )?
        .query_row([], |row| {
            Ok(StoredProfile {
                name: row.get(0)?,
                currency: row.get(1)?,
                timezone: row.get(2)?,
                tax_included: row.get(3)?,
                default_tax_rate: row.get(4)?,
            })
        })
        .optional()?;
    Ok(StoreProfile::from_stored(stored.unwrap_or_default()))
}

/// Changes the profile and announces it as `store.profile.updated`.
fn patch(tx: &mut Tx<'_>, patch: ProfilePatch) -> Result<StoreProfile> {
    let current = get(tx)?;
    let updated = patch.apply(&current);
    if updated == current {
        return Ok(current);
    }
    tx.prepare_cached(
        "INSERT INTO store_profile (id, name, currency, timezone, tax_included, default_tax_rate)
         VALUES (1, ?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (id) DO UPDATE SET name = ?1, currency = ?2, timezone = ?3,
             tax_included = ?4, default_tax_rate = ?5",
    )?
    .execute(params![
        updated.name,
        updated.currency,
        updated.timezone,
        updated.tax_included,
        updated.default_tax_rate
    ])?;
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
