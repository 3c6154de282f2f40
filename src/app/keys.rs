//! API keys of the running app: the one place a key is made (for the API, the command line
//! and a new store's first admin), and the in-memory keyring requests are checked against,
//! re-read from the store after every change.
//!
//! Another process on the same store (a second server on one PostgreSQL database, or
//! `petstore keys create` beside a server) makes keys and sign-in sessions this keyring has
//! not read yet. A secret the keyring does not know is therefore looked up in the store
//! before it is refused ([`Keys::resolve_fresh`]): a key or session works on every process
//! as soon as it is answered. Revocations reach the other processes with the maintenance
//! thread's re-read, every second (the interface allows 2 s); this process's own revocations
//! take effect at once.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::auth::{self, Caller, Keyring, Secret};
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
    /// Reads of the store's keys, numbered as they start (see [`Keys::apply`]).
    reads: AtomicU64,
    /// The number of the newest read put into the keyring.
    applied: Mutex<u64>,
    /// Held by the re-read a secret unknown to the keyring starts: unknown secrets arriving
    /// together share one read of the store (see [`Keys::resolve_fresh`]).
    miss: tokio::sync::Mutex<()>,
}

impl Keys {
    /// The keyring of `store`'s active keys (read now, on this thread).
    pub fn load(store: Store) -> Result<Self, StoreError> {
        let keys = Self {
            store,
            keyring: Keyring::default(),
            reads: AtomicU64::new(0),
            applied: Mutex::new(0),
            miss: tokio::sync::Mutex::new(()),
        };
        keys.reload_blocking()?;
        Ok(keys)
    }

    pub fn keyring(&self) -> &Keyring {
        &self.keyring
    }

    /// The caller `secret` belongs to: from the keyring, or, when the keyring does not know
    /// it, from a re-read of the store's keys and sessions that started after this call (a
    /// key made or a member signed in on another process a moment ago). Unknown secrets that
    /// arrive together wait for one re-read, so a burst of wrong keys reads the store once at
    /// a time, not once each. A failed re-read leaves the secret unknown.
    pub async fn resolve_fresh(&self, secret: &str, now: i64) -> Option<Arc<Caller>> {
        if let Some(caller) = self.keyring.resolve(secret, now) {
            return Some(caller);
        }
        let arrived = self.reads.load(Ordering::Relaxed);
        let _one = self.miss.lock().await;
        let newer_applied = *self.applied.lock().unwrap_or_else(|e| e.into_inner()) > arrived;
        if !newer_applied {
            if let Err(err) = self.reload().await {
                tracing::warn!(%err, "re-reading keys for an unknown key failed");
                return None;
            }
        }
        self.keyring.resolve(secret, now)
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

    /// Ends a staff member's session: it stops working at once in this process, and a re-read
    /// that found the session open before it ended (the maintenance thread's, every second)
    /// cannot put it back, because the re-read made here after the end is the newer one.
    pub async fn end_session(&self, session_id: i64) -> Result<(), StoreError> {
        self.keyring.remove_staff(session_id);
        self.store.staff().end_session(session_id).await?;
        self.reload().await
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
        let read = self.begin_read();
        let active = self.store.keys().active().await?;
        let sessions = self.store.staff().open_sessions().await?;
        self.apply(read, active, super::staff::callers(sessions));
        Ok(())
    }

    /// [`Keys::reload`] off the async runtime.
    pub fn reload_blocking(&self) -> Result<(), StoreError> {
        let read = self.begin_read();
        let active = self.store.keys().active().wait()?;
        let sessions = self.store.staff().open_sessions().wait()?;
        self.apply(read, active, super::staff::callers(sessions));
        Ok(())
    }

    /// Numbers a read of the store's keys that is about to start.
    fn begin_read(&self) -> u64 {
        self.reads.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Puts what read number `read` found into the keyring, unless a read that started
    /// later is already in. Reloads run at once from requests (after each change to a key or
    /// a sign-in) and from the maintenance thread (every second, for changes made by another
    /// process): one that read the keys just before a key was made, and finished just
    /// after the request that made it had reloaded, would put the new key out again until
    /// the next reload. A till paired by its QR code was refused with its fresh key so.
    fn apply(&self, read: u64, active: Vec<(String, KeyRecord)>, staff: Vec<(String, Caller)>) {
        let mut applied = self.applied.lock().unwrap_or_else(|e| e.into_inner());
        if read < *applied {
            return;
        }
        *applied = read;
        self.keyring.replace(active);
        self.keyring.replace_staff(staff);
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

    #[test]
    fn a_key_made_by_another_process_is_found_at_its_first_use_and_a_wrong_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
        let keys = Keys::load(store.clone()).unwrap();
        // Another process (here: the store written past this keyring) makes a key.
        let new = NewKey {
            name: "Till 9".into(),
            role: Role::Pos,
            plan: Plan::Free,
            custom: None,
        };
        let (secret, made) = create(&store, new);
        made.wait().unwrap();
        assert!(keys.keyring().resolve(&secret, 0).is_none(), "not read yet");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let found = runtime.block_on(keys.resolve_fresh(&secret, 0));
        assert_eq!(found.map(|c| c.name.clone()).as_deref(), Some("Till 9"));
        let wrong = runtime.block_on(keys.resolve_fresh("psk_not_a_key_of_this_store", 0));
        assert!(wrong.is_none());
        store.close();
    }

    #[test]
    fn a_reload_that_read_the_keys_before_a_newer_one_does_not_put_a_new_key_out_again() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
        let keys = Keys::load(store.clone()).unwrap();
        // The maintenance thread starts a reload and reads the keys...
        let slow = keys.begin_read();
        let before = store.keys().active().wait().unwrap();
        // ... a request makes a key and reloads...
        let new = NewKey {
            name: "Till 7".into(),
            role: Role::Pos,
            plan: Plan::Free,
            custom: None,
        };
        let (secret, made) = create(&store, new);
        made.wait().unwrap();
        keys.reload_blocking().unwrap();
        // ... and only then does the slow reload finish.
        keys.apply(slow, before, Vec::new());
        assert!(
            keys.keyring().resolve(&secret, 0).is_some(),
            "the new key still works"
        );
        store.close();
    }

    #[test]
    fn a_reload_that_read_the_sessions_before_a_sign_out_does_not_put_the_session_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("store.sqlite")).unwrap();
        let keys = Keys::load(store.clone()).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let now = chrono::Utc::now().timestamp();
        let member = store
            .staff()
            .create("Ann".into(), Role::Staff, "not a PIN hash".into())
            .wait()
            .unwrap();
        let secret = Secret::generate().into_string();
        let session = store
            .sign_ins()
            .signed_in(
                "device".into(),
                member.id,
                auth::hash(&secret),
                now,
                now - 60,
            )
            .wait()
            .unwrap();
        keys.reload_blocking().unwrap();
        assert!(keys.keyring().resolve(&secret, now).is_some(), "signed in");
        // The maintenance thread starts a reload and reads the session while it is open...
        let slow = keys.begin_read();
        let active = store.keys().active().wait().unwrap();
        let open = super::super::staff::callers(store.staff().open_sessions().wait().unwrap());
        // ... the member signs out ...
        runtime.block_on(keys.end_session(session)).unwrap();
        // ... and only then does the slow reload finish.
        keys.apply(slow, active, open);
        assert!(
            keys.keyring().resolve(&secret, now).is_none(),
            "a signed-out session stays out"
        );
        store.close();
    }
}
