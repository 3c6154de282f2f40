//! API keys of the running app: the one place a key is made (for the API, the command line
//! and a new store's first admin), and the in-memory keyring requests are checked against,
//! re-read from the store after every change.

use crate::auth::{self, Keyring, Secret};
use crate::domain::key::{KeyPatchInput, KeyRecord, NewKey, Role};
use crate::limits::{Plan, Quota};
use crate::store::{Call, Store, StoreError};

/// Limits of the first admin key of a new store.
pub const FIRST_ADMIN_QUOTA: Quota = Quota {
    per_minute: crate::contract::FIRST_ADMIN_PER_MINUTE,
    per_day: crate::contract::FIRST_ADMIN_PER_DAY,
};

/// A key's secret and what the store keeps of it (its prefix and hash, never the secret).
struct Minted {
    secret: String,
    prefix: String,
    hash: String,
}

impl Minted {
    /// A new random secret, or the one given.
    fn new(given: Option<String>) -> Self {
        let secret = given.unwrap_or_else(|| Secret::generate().into_string());
        Self {
            prefix: auth::prefix(&secret),
            hash: auth::hash(&secret),
            secret,
        }
    }
}

/// Makes a key: the secret (shown once, never stored) and the store call that keeps it.
/// Every key the program makes is made here.
pub fn create(store: &Store, new: NewKey) -> (String, Call<'_, KeyRecord>) {
    let minted = Minted::new(None);
    let call = store.keys().create(new, minted.prefix, minted.hash);
    (minted.secret, call)
}

/// Creates the first admin key of an empty store: the given secret, or a new one. Returns
/// the secret to show once when this call made a new one.
pub fn ensure_first_admin(
    store: &Store,
    given: Option<String>,
) -> Result<Option<String>, StoreError> {
    let generated = given.is_none();
    let minted = Minted::new(given);
    let new = NewKey {
        name: "admin".into(),
        role: Role::Admin,
        plan: Plan::Enterprise,
        custom: Some(FIRST_ADMIN_QUOTA),
    };
    let made = store
        .keys()
        .create_first(new, minted.prefix, minted.hash)
        .wait()?;
    Ok((made && generated).then_some(minted.secret))
}

/// The keys a running app accepts, kept in step with the store.
pub struct Keys {
    store: Store,
    keyring: Keyring,
}

impl Keys {
    /// The keyring of `store`'s active keys (read now, on this thread).
    pub fn load(store: Store) -> Result<Self, StoreError> {
        let keys = Self {
            store,
            keyring: Keyring::default(),
        };
        keys.reload_blocking()?;
        Ok(keys)
    }

    pub fn keyring(&self) -> &Keyring {
        &self.keyring
    }

    /// Creates a key; its secret is returned here and never again.
    pub async fn create(&self, new: NewKey) -> Result<(KeyRecord, String), StoreError> {
        let (secret, call) = create(&self.store, new);
        let record = call.await?;
        self.reload().await?;
        Ok((record, secret))
    }

    /// Applies an admin's change to a key.
    pub async fn update(&self, id: i64, patch: KeyPatchInput) -> Result<KeyRecord, StoreError> {
        let record = self.store.keys().update(id, patch).await?;
        self.reload().await?;
        Ok(record)
    }

    /// Revokes a key; it stops working at once in this process.
    pub async fn revoke(&self, id: i64) -> Result<KeyRecord, StoreError> {
        let record = self.store.keys().revoke(id).await?;
        self.reload().await?;
        Ok(record)
    }

    /// An admin key that lives only in this process's memory, for the desktop window.
    pub fn issue_session_key(&self, name: &str) -> String {
        self.keyring.add_session_key(name, FIRST_ADMIN_QUOTA)
    }

    /// Accepts a session key issued by an earlier `App` of this process again.
    pub fn keep_session_key(&self, name: &str, secret: &str) {
        self.keyring
            .keep_session_key(name, secret, FIRST_ADMIN_QUOTA)
    }

    /// Re-reads the active keys and the open staff sessions into the keyring.
    pub async fn reload(&self) -> Result<(), StoreError> {
        let active = self.store.keys().active().await?;
        let sessions = self.store.staff().open_sessions().await?;
        self.keyring.replace(active);
        self.keyring.replace_staff(super::staff::callers(sessions));
        Ok(())
    }

    /// [`Keys::reload`] off the async runtime.
    pub fn reload_blocking(&self) -> Result<(), StoreError> {
        let active = self.store.keys().active().wait()?;
        let sessions = self.store.staff().open_sessions().wait()?;
        self.keyring.replace(active);
        self.keyring.replace_staff(super::staff::callers(sessions));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Barrier};

    use super::*;

    #[test]
    fn programs_starting_at_once_on_a_new_store_make_one_first_admin_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.sqlite");
        let barrier = Arc::new(Barrier::new(4));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (path, barrier) = (path.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    let store = Store::open(&path).unwrap();
                    let shown = ensure_first_admin(&store, None).unwrap();
                    (store, shown)
                })
            })
            .collect();
        let started: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let shown = started.iter().filter(|(_, s)| s.is_some()).count();
        assert_eq!(shown, 1, "one start shows the new admin key");
        let keys = started[0].0.keys().list().wait().unwrap();
        assert_eq!(keys.len(), 1, "{keys:?}");
        assert_eq!(keys[0].role, Role::Admin);
        for (store, _) in started {
            store.close();
        }
    }
}
