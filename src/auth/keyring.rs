//! The active keys, in memory, by the hash of their secret.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};

use super::secret::{hash, Secret};
use crate::domain::key::{KeyRecord, Role};
use crate::limits::Quota;

/// The caller of a request, once its key is known.
#[derive(Debug)]
pub struct Caller {
    pub key_id: i64,
    pub name: String,
    pub role: Role,
    pub quota: Quota,
    /// Unix seconds of the last request; saved to the store from time to time.
    last_used: AtomicI64,
}

impl Caller {
    pub fn new(key_id: i64, name: String, role: Role, quota: Quota) -> Self {
        Self {
            key_id,
            name,
            role,
            quota,
            last_used: AtomicI64::new(0),
        }
    }

    fn from_record(record: &KeyRecord) -> Self {
        Self::new(record.id, record.name.clone(), record.role, record.quota())
    }

    /// Whether this is an in-memory key of this process (the desktop window's).
    pub fn is_session(&self) -> bool {
        self.key_id == SESSION_KEY_ID
    }

    /// Whether the caller's role includes `role`.
    pub fn may(&self, role: Role) -> bool {
        self.role >= role
    }
}

/// Active keys by secret hash. Reads take a shared lock only.
#[derive(Default)]
pub struct Keyring {
    stored: RwLock<Arc<HashMap<String, Arc<Caller>>>>,
    session: RwLock<HashMap<String, Arc<Caller>>>,
    /// Last-use times (Unix seconds) of keys that have left the ring (revoked), by key id,
    /// so that a use shortly before revoking is still shown and saved.
    retired: RwLock<HashMap<i64, i64>>,
}

/// Id of keys that live only in this process's memory.
pub const SESSION_KEY_ID: i64 = 0;

impl Keyring {
    /// Replaces the stored keys with `records` (hash, record), keeping last-use times.
    pub fn replace(&self, records: Vec<(String, KeyRecord)>) {
        let previous = self.snapshot();
        let map = records
            .into_iter()
            .map(|(hash, record)| {
                let caller = Caller::from_record(&record);
                let last = previous
                    .get(&hash)
                    .map_or(0, |c| c.last_used.load(Ordering::Relaxed));
                caller.last_used.store(last, Ordering::Relaxed);
                (hash, Arc::new(caller))
            })
            .collect::<HashMap<_, _>>();
        let left = previous
            .iter()
            .filter(|(hash, _)| !map.contains_key(*hash))
            .map(|(_, c)| (c.key_id, c.last_used.load(Ordering::Relaxed)))
            .filter(|&(_, at)| at > 0);
        self.retired
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .extend(left);
        *self.stored.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(map);
    }

    fn snapshot(&self) -> Arc<HashMap<String, Arc<Caller>>> {
        self.stored
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The caller a secret belongs to, if it is an active key; notes the use.
    pub fn resolve(&self, secret: &str, now: i64) -> Option<Arc<Caller>> {
        let hashed = hash(secret);
        let caller = self.snapshot().get(&hashed).cloned().or_else(|| {
            self.session
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .get(&hashed)
                .cloned()
        })?;
        caller.last_used.store(now, Ordering::Relaxed);
        Some(caller)
    }

    /// An admin key that lives only in this process's memory (for the desktop window).
    pub fn add_session_key(&self, name: &str, quota: Quota) -> String {
        let secret = Secret::generate();
        let caller = Caller::new(SESSION_KEY_ID, name.to_owned(), Role::Admin, quota);
        self.session
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(hash(secret.expose()), Arc::new(caller));
        secret.into_string()
    }

    /// When a stored key was last used (Unix seconds), as this process saw it.
    pub fn last_used(&self, key_id: i64) -> Option<i64> {
        self.snapshot()
            .values()
            .find(|c| c.key_id == key_id)
            .map(|c| c.last_used.load(Ordering::Relaxed))
            .filter(|&at| at > 0)
            .or_else(|| self.retired_uses().get(&key_id).copied())
    }

    /// Every stored key used by this process (revoked ones included), with the Unix second
    /// of its last use.
    pub fn last_uses(&self) -> Vec<(i64, i64)> {
        let retired: Vec<(i64, i64)> = self
            .retired_uses()
            .iter()
            .map(|(&id, &at)| (id, at))
            .collect();
        self.snapshot()
            .values()
            .map(|c| (c.key_id, c.last_used.load(Ordering::Relaxed)))
            .chain(retired)
            .filter(|&(_, at)| at > 0)
            .collect()
    }

    fn retired_uses(&self) -> std::sync::RwLockReadGuard<'_, HashMap<i64, i64>> {
        self.retired.read().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Plan;

    fn record(id: i64) -> KeyRecord {
        KeyRecord {
            id,
            name: format!("key {id}"),
            role: Role::Pos,
            plan: Plan::Free,
            custom: None,
            prefix: format!("psk_{id}"),
            created_at: "2026-11-22T00:00:00Z".into(),
            last_used_at: None,
            revoked_at: None,
        }
    }

    #[test]
    fn the_last_use_of_a_key_that_leaves_the_ring_is_kept_for_saving() {
        let ring = Keyring::default();
        ring.replace(vec![("h1".into(), record(1)), ("h2".into(), record(2))]);
        // Resolving hashes the secret, so place the use directly.
        ring.snapshot()["h1"]
            .last_used
            .store(100, Ordering::Relaxed);
        ring.replace(vec![("h2".into(), record(2))]);
        assert_eq!(ring.last_used(1), Some(100));
        assert_eq!(
            ring.last_uses(),
            vec![(1, 100)],
            "a key never used is not listed"
        );
    }
}
