//! The active keys, in memory, by the hash of their secret.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};

use super::pin::SESSION_IDLE;
use super::secret::{hash, Secret};
use crate::domain::key::{KeyRecord, Role};
use crate::domain::staff::MemberRef;
use crate::limits::{Plan, Quota, Subject};

/// The caller of a request, once its key is known.
#[derive(Debug)]
pub struct Caller {
    pub key_id: i64,
    pub name: String,
    pub role: Role,
    pub quota: Quota,
    /// The staff member and session, when the key is a member's sign-in session.
    pub staff: Option<StaffSession>,
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
            staff: None,
            last_used: AtomicI64::new(0),
        }
    }

    /// The caller of a staff member's session. Its `key_id` is the session id negated, so it
    /// never meets a stored key's id (positive) or the desktop's (0) in rate limits and
    /// idempotency records.
    pub fn for_staff(session: StaffSession, name: String, role: Role, last_used: i64) -> Self {
        let quota = STAFF_SESSION_PLAN.quota(None).unwrap_or(Quota {
            per_minute: 1_000,
            per_day: 100_000,
        });
        let mut caller = Self::new(-session.session_id, name, role, quota);
        caller.staff = Some(session);
        caller.last_used = AtomicI64::new(last_used);
        caller
    }

    /// The staff member this caller's session belongs to, if it is one.
    pub fn member(&self) -> Option<MemberRef> {
        self.staff.map(|s| MemberRef {
            id: s.staff_id,
            name: self.name.clone(),
        })
    }

    /// Who the caller's requests are counted against, banned as and given event-stream
    /// places as: the staff member for a sign-in session (every session of one member
    /// together), else the key.
    pub fn subject(&self) -> Subject {
        match self.staff {
            Some(session) => Subject::Staff(session.staff_id),
            None => Subject::Key(self.key_id),
        }
    }

    /// Unix seconds of the caller's last request, as this process saw it.
    pub fn last_used(&self) -> i64 {
        self.last_used.load(Ordering::Relaxed)
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

/// Which member signed in, and which of their sessions this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaffSession {
    pub staff_id: i64,
    pub session_id: i64,
}

/// The plan a staff session is on.
pub const STAFF_SESSION_PLAN: Plan = Plan::Business;

/// Active keys by secret hash. Reads take a shared lock only.
#[derive(Default)]
pub struct Keyring {
    stored: RwLock<Arc<HashMap<String, Arc<Caller>>>>,
    session: RwLock<HashMap<String, Arc<Caller>>>,
    /// Staff members' sign-in sessions, by secret hash.
    staff: RwLock<HashMap<String, Arc<Caller>>>,
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
        let caller = self
            .snapshot()
            .get(&hashed)
            .cloned()
            .or_else(|| {
                self.session
                    .read()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(&hashed)
                    .cloned()
            })
            .or_else(|| self.staff_session(&hashed, now))?;
        caller.last_used.store(now, Ordering::Relaxed);
        Some(caller)
    }

    /// Whether `caller` still holds: its key, session or the desktop's key is active with
    /// the same role (a revoked or re-roled key no longer holds).
    pub fn still_holds(&self, caller: &Caller) -> bool {
        let same = |c: &Arc<Caller>| c.key_id == caller.key_id && c.role == caller.role;
        if caller.staff.is_some() {
            self.staff
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .values()
                .any(same)
        } else if caller.is_session() {
            self.session
                .read()
                .unwrap_or_else(|e| e.into_inner())
                .values()
                .any(same)
        } else {
            self.snapshot().values().any(same)
        }
    }

    /// A staff session by the hash of its secret, unless it has gone unused too long.
    fn staff_session(&self, hashed: &str, now: i64) -> Option<Arc<Caller>> {
        let caller = self
            .staff
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(hashed)
            .cloned()?;
        (now - caller.last_used() <= SESSION_IDLE).then_some(caller)
    }

    /// Replaces the staff sessions with `sessions` (secret hash, caller), keeping the later
    /// of the stored and the seen last use.
    pub fn replace_staff(&self, sessions: Vec<(String, Caller)>) {
        let mut map = self.staff.write().unwrap_or_else(|e| e.into_inner());
        let fresh = sessions
            .into_iter()
            .map(|(hash, caller)| {
                if let Some(seen) = map.get(&hash) {
                    caller
                        .last_used
                        .fetch_max(seen.last_used(), Ordering::Relaxed);
                }
                (hash, Arc::new(caller))
            })
            .collect();
        *map = fresh;
    }

    /// Adds one staff session (just signed in).
    pub fn add_staff(&self, secret_hash: String, caller: Caller) {
        self.staff
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(secret_hash, Arc::new(caller));
    }

    /// Ends a staff session at once in this process.
    pub fn remove_staff(&self, session_id: i64) {
        self.staff
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, c| c.staff.map(|s| s.session_id) != Some(session_id));
    }

    /// The last use (Unix seconds) of every staff session, by session id.
    pub fn staff_uses(&self) -> Vec<(i64, i64)> {
        self.staff
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter_map(|c| Some((c.staff?.session_id, c.last_used())))
            .collect()
    }

    /// An admin key that lives only in this process's memory (for the desktop window).
    pub fn add_session_key(&self, name: &str, quota: Quota) -> String {
        let secret = Secret::generate();
        self.keep_session_key(name, secret.expose(), quota);
        secret.into_string()
    }

    /// Accepts `secret` as an in-memory admin key, as [`Keyring::add_session_key`] made it:
    /// a store reopened in the same process (after a restore) keeps the window's key.
    pub fn keep_session_key(&self, name: &str, secret: &str, quota: Quota) {
        let caller = Caller::new(SESSION_KEY_ID, name.to_owned(), Role::Admin, quota);
        self.session
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(hash(secret), Arc::new(caller));
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
