//! The running application: settings, store, keyring and limiter, shared by every listener
//! (the desktop app serves the same [`App`] on loopback and, when asked, on the LAN).
//!
//! A maintenance thread saves day counts and last-use times every few seconds, re-reads the
//! keys (so `petstore keys revoke` from another process takes effect while serving), and
//! prunes old events and idempotency records. [`App::close`] saves once more and checkpoints.

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::auth::{self, Keyring, Secret};
use crate::domain::key::{KeyRecord, NewKey, Role};
use crate::limits::{Clock, Limiter, Plan, Quota, Subject, SystemClock};
use crate::settings::Settings;
use crate::store::{self, idempotency, Store, StoreError};
use crate::Error;

/// Limits of the first admin key of a new store.
pub const FIRST_ADMIN_QUOTA: Quota = Quota {
    per_minute: crate::contract::FIRST_ADMIN_PER_MINUTE,
    per_day: crate::contract::FIRST_ADMIN_PER_DAY,
};

/// How often day counts and last-use times are saved.
const SAVE_EVERY: Duration = Duration::from_secs(5);
/// How often keys are re-read from the store.
const RELOAD_KEYS_EVERY: Duration = Duration::from_secs(2);
/// How often old events and idempotency records are pruned.
const PRUNE_EVERY: Duration = Duration::from_secs(600);

/// A handle to the application; cheap to clone.
#[derive(Clone)]
pub struct App {
    inner: Arc<Inner>,
}

struct Inner {
    settings: Settings,
    store: Store,
    keyring: Keyring,
    limiter: Limiter,
    clock: Arc<dyn Clock>,
    in_flight: Mutex<HashSet<(i64, String)>>,
    first_admin_key: Mutex<Option<String>>,
    /// What the last save wrote, so an idle store does not write (and fsync) at all.
    saved: Mutex<Saved>,
    maintenance: Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
}

impl App {
    /// Opens the store of `settings`, creating the first admin key in an empty store.
    pub fn open(settings: &Settings) -> Result<Self, Error> {
        Self::open_with_clock(settings, Arc::new(SystemClock))
    }

    /// [`App::open`] with the clock the rate limiter reads (tests move it by hand).
    pub fn open_with_clock(settings: &Settings, clock: Arc<dyn Clock>) -> Result<Self, Error> {
        let store = Store::open(&settings.db)?;
        let first_admin_key = ensure_first_admin(&store, settings.admin_key.clone())?;
        let limiter = Limiter::new(settings.ban, clock.clone());
        let today = crate::limits::day_start(clock.now());
        for (subject, day_start, count) in
            store.read_blocking(move |c| store::usage::load(c, today))?
        {
            if let Some(subject) = parse_subject(&subject) {
                limiter.restore_day_count(subject, day_start, count);
            }
        }
        let app = Self {
            inner: Arc::new(Inner {
                settings: settings.clone(),
                store,
                keyring: Keyring::default(),
                limiter,
                clock,
                in_flight: Mutex::new(HashSet::new()),
                first_admin_key: Mutex::new(first_admin_key),
                saved: Mutex::new(Saved::default()),
                maintenance: Mutex::new(None),
            }),
        };
        app.reload_keys_blocking()?;
        app.start_maintenance()?;
        Ok(app)
    }

    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    pub fn keyring(&self) -> &Keyring {
        &self.inner.keyring
    }

    pub fn limiter(&self) -> &Limiter {
        &self.inner.limiter
    }

    /// Unix seconds by the app's clock.
    pub fn now(&self) -> i64 {
        self.inner.clock.now()
    }

    /// The secret of the admin key created by this start, to be shown once. `None` when the
    /// store already had keys or the secret came from `PETSTORE_ADMIN_KEY`.
    pub fn first_admin_key(&self) -> Option<String> {
        self.inner
            .first_admin_key
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    /// An admin key that lives only in this process's memory, for the desktop window.
    pub fn issue_session_key(&self, name: &str) -> String {
        self.inner.keyring.add_session_key(name, FIRST_ADMIN_QUOTA)
    }

    /// Creates a key; its secret is returned here and never again.
    pub async fn create_key(&self, new: NewKey) -> Result<(KeyRecord, String), StoreError> {
        let secret = Secret::generate().into_string();
        let (prefix, hash) = (auth::prefix(&secret), auth::hash(&secret));
        let record = self
            .store()
            .write(move |tx| store::keys::insert(tx, &new, &prefix, &hash))
            .await?;
        self.reload_keys().await?;
        Ok((record, secret))
    }

    /// Re-reads the active keys into the keyring.
    pub async fn reload_keys(&self) -> Result<(), StoreError> {
        let active = self.store().read(store::keys::active).await?;
        self.inner.keyring.replace(active);
        Ok(())
    }

    fn reload_keys_blocking(&self) -> Result<(), StoreError> {
        let active = self.store().read_blocking(store::keys::active)?;
        self.inner.keyring.replace(active);
        Ok(())
    }

    /// Marks an idempotent request as being processed; `false` if it already is.
    pub fn begin_idempotent(&self, scope: &idempotency::Scope) -> bool {
        self.inner
            .in_flight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert((scope.key_id, scope.key.clone()))
    }

    /// Marks an idempotent request as finished.
    pub fn end_idempotent(&self, scope: &idempotency::Scope) {
        self.inner
            .in_flight
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&(scope.key_id, scope.key.clone()));
    }

    /// Saves day counts and last-use times that changed since the last save.
    pub fn save_usage(&self) -> Result<(), StoreError> {
        let mut saved = self.inner.saved.lock().unwrap_or_else(|e| e.into_inner());
        let counts: Vec<(String, i64, u64)> = self
            .inner
            .limiter
            .day_counts()
            .into_iter()
            .map(|(subject, day, count)| (subject_key(&subject), day, count))
            .filter(|(subject, day, count)| saved.counts.get(subject) != Some(&(*day, *count)))
            .collect();
        let used: Vec<(i64, i64)> = self
            .inner
            .keyring
            .last_uses()
            .into_iter()
            .filter(|(id, at)| saved.uses.get(id) != Some(at))
            .collect();
        let uses: Vec<(i64, String)> = used
            .iter()
            .filter_map(|&(id, at)| {
                chrono::DateTime::from_timestamp(at, 0)
                    .map(|t| (id, crate::domain::time::format(t)))
            })
            .collect();
        if counts.is_empty() && uses.is_empty() {
            return Ok(());
        }
        let written = counts.clone();
        self.store().write_blocking(move |tx| {
            store::usage::save(tx, &counts)?;
            store::keys::touch(tx, &uses)
        })?;
        // Only today's counts are ever saved again; forget the rest so this never grows.
        let today = crate::limits::day_start(self.now());
        saved.counts.retain(|_, (day, _)| *day == today);
        for (subject, day, count) in written {
            saved.counts.insert(subject, (day, count));
        }
        saved.uses.extend(used);
        Ok(())
    }

    fn start_maintenance(&self) -> Result<(), Error> {
        let (stop, stopped) = mpsc::channel::<()>();
        let app = Arc::downgrade(&self.inner);
        let thread = std::thread::Builder::new()
            .name("store-maintenance".into())
            .spawn(move || {
                let mut ticks: u64 = 0;
                loop {
                    match stopped.recv_timeout(Duration::from_secs(1)) {
                        Err(RecvTimeoutError::Timeout) => {}
                        _ => return,
                    }
                    ticks += 1;
                    let Some(inner) = app.upgrade() else { return };
                    let app = App { inner };
                    app.maintain(ticks);
                }
            })?;
        *self
            .inner
            .maintenance
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some((stop, thread));
        Ok(())
    }

    fn maintain(&self, ticks: u64) {
        let due = |every: Duration| ticks.is_multiple_of(every.as_secs());
        if due(RELOAD_KEYS_EVERY) {
            if let Err(err) = self.reload_keys_blocking() {
                tracing::warn!(%err, "re-reading keys failed");
            }
        }
        if due(SAVE_EVERY) {
            if let Err(err) = self.save_usage() {
                tracing::warn!(%err, "saving usage failed");
            }
            self.inner.limiter.forget_idle();
        }
        if due(PRUNE_EVERY) {
            let pruned = self
                .store()
                .write_blocking(|tx| Ok(store::events::prune(tx)? + idempotency::prune(tx)?));
            if let Err(err) = pruned {
                tracing::warn!(%err, "pruning old records failed");
            }
        }
    }

    /// Saves usage, stops the store's threads and checkpoints the WAL. Call after every
    /// `serve` of this app has returned.
    pub fn close(&self) {
        let maintenance = self
            .inner
            .maintenance
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some((stop, thread)) = maintenance {
            let _ = stop.send(());
            let _ = thread.join();
        }
        if let Err(err) = self.save_usage() {
            tracing::warn!(%err, "saving usage at shutdown failed");
        }
        self.inner.store.close();
    }
}

/// What [`App::save_usage`] last wrote.
#[derive(Default)]
struct Saved {
    counts: std::collections::HashMap<String, (i64, u64)>,
    uses: std::collections::HashMap<i64, i64>,
}

/// Creates the first admin key of an empty store: the given secret, or a new one (which is
/// returned so it can be shown once).
fn ensure_first_admin(store: &Store, given: Option<String>) -> Result<Option<String>, Error> {
    if store.read_blocking(store::keys::any)? {
        return Ok(None);
    }
    let generated = given.is_none();
    let secret = given.unwrap_or_else(|| Secret::generate().into_string());
    let new = NewKey {
        name: "admin".into(),
        role: Role::Admin,
        plan: Plan::Enterprise,
        custom: Some(FIRST_ADMIN_QUOTA),
    };
    let (prefix, hash) = (auth::prefix(&secret), auth::hash(&secret));
    store.write_blocking(move |tx| {
        // Another process may have created it between the check and this write.
        if store::keys::any(tx)? {
            return Ok(());
        }
        store::keys::insert(tx, &new, &prefix, &hash).map(|_| ())
    })?;
    Ok(generated.then_some(secret))
}

/// How a rate-limit subject is saved.
pub fn subject_key(subject: &Subject) -> String {
    match subject {
        Subject::Key(id) => format!("key:{id}"),
        Subject::Addr(addr) => format!("addr:{addr}"),
    }
}

fn parse_subject(raw: &str) -> Option<Subject> {
    match raw.split_once(':')? {
        ("key", id) => id.parse().ok().map(Subject::Key),
        ("addr", addr) => addr.parse::<IpAddr>().ok().map(Subject::Addr),
        _ => None,
    }
}
