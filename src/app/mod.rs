//! The running application, shared by every listener (the desktop app serves the same
//! [`App`] on loopback and, when asked, on the LAN). `App` only wires its parts, one job
//! each:
//! - [`keys`]: making keys (the one place), and the keyring requests are checked against;
//! - [`usage`]: the rate limiter and its saved day counts;
//! - [`idempotency`]: idempotent requests in flight in this process;
//! - [`maintenance`]: the thread that saves, re-reads keys and prunes;
//! - `staff`: staff members signing in by name and PIN (each try counted in the store before
//!   its PIN is checked, PINs checked on a few threads of their own), and out;
//! - [`pairings`]: one-time codes that pair a till, kept in the store;
//! - [`backups`]: the backup folder and the thread that backs the store up on schedule.
//! - [`network`]: the listeners serving the app and the store's HTTPS certificate.
//!
//! [`App::close`] stops maintenance and backups, saves usage and bans once more, and closes
//! the store. [`App::open`] reads the bans in force before the first request.

pub mod backups;
pub mod idempotency;
pub mod keys;
mod maintenance;
pub mod network;
pub mod pairings;
mod staff;
pub mod usage;

pub use staff::SignInRefused;

use std::sync::{Arc, Mutex};

use crate::auth::Keyring;
use crate::limits::{Clock, Limiter, SystemClock};
use crate::settings::Settings;
use crate::store::{Store, StoreError};
use crate::Error;

pub use keys::FIRST_ADMIN_QUOTA;

/// A handle to the application; cheap to clone.
#[derive(Clone)]
pub struct App {
    inner: Arc<Inner>,
}

struct Inner {
    settings: Settings,
    store: Store,
    keys: keys::Keys,
    usage: usage::Usage,
    in_flight: idempotency::InFlight,
    /// Places on the event stream, shared by every listener.
    stream_places: crate::limits::StreamPlaces,
    first_admin_key: Mutex<Option<String>>,
    maintenance: maintenance::Maintenance,
    backups: backups::Backups,
    pairings: pairings::Pairings,
    network: network::Network,
    sign_ins: staff::SignIns,
}

impl App {
    /// Opens the store of `settings`, creating the first admin key in an empty store.
    pub fn open(settings: &Settings) -> Result<Self, Error> {
        Self::open_with_clock(settings, Arc::new(SystemClock))
    }

    /// [`App::open`] with the clock the rate limiter reads (tests move it by hand).
    pub fn open_with_clock(settings: &Settings, clock: Arc<dyn Clock>) -> Result<Self, Error> {
        let store = Store::open_exclusive(&settings.db)?;
        let first_admin_key = keys::ensure_first_admin(&store, settings.admin_key.clone())?;
        let usage = usage::Usage::load(&store, settings.ban, clock)?;
        // The bans in force are known before the first request, not a second later.
        usage.sync_bans(&store)?;
        let keys = keys::Keys::load(store.clone())?;
        let pairings = pairings::Pairings::new(store.clone());
        let app = Self {
            inner: Arc::new(Inner {
                settings: settings.clone(),
                store,
                keys,
                usage,
                in_flight: idempotency::InFlight::default(),
                stream_places: crate::limits::StreamPlaces::default(),
                first_admin_key: Mutex::new(first_admin_key),
                maintenance: maintenance::Maintenance::default(),
                backups: backups::Backups::new(settings.db.clone(), settings.backup.clone()),
                pairings,
                network: network::Network::new(crate::store::files_parent(&settings.db)),
                sign_ins: staff::SignIns::start()?,
            }),
        };
        if settings.tls.is_on() {
            // Made (or renewed) now, so a start that cannot have HTTPS fails at once.
            app.inner.network.tls()?;
        }
        app.inner.maintenance.start(Arc::downgrade(&app.inner))?;
        app.inner.backups.start_schedule()?;
        Ok(app)
    }

    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Places on the event stream.
    pub fn stream_places(&self) -> &crate::limits::StreamPlaces {
        &self.inner.stream_places
    }

    /// Making, changing and revoking keys.
    pub fn keys(&self) -> &keys::Keys {
        &self.inner.keys
    }

    pub fn keyring(&self) -> &Keyring {
        self.inner.keys.keyring()
    }

    pub fn limiter(&self) -> &Limiter {
        self.inner.usage.limiter()
    }

    /// Lifts the ban on `subject` here and on every process serving the store.
    pub async fn lift_ban(&self, subject: crate::limits::Subject) -> Result<(), StoreError> {
        self.inner.usage.lift_ban(&self.inner.store, subject).await
    }

    /// The store's backups: the schedule, the folder, taking one now.
    pub fn backups(&self) -> &backups::Backups {
        &self.inner.backups
    }

    /// Pairing codes waiting for their device.
    pub fn pairings(&self) -> &pairings::Pairings {
        &self.inner.pairings
    }

    /// The listeners serving the app, and the store's HTTPS certificate.
    pub fn network(&self) -> &network::Network {
        &self.inner.network
    }

    /// Idempotent requests in flight.
    pub fn idempotency(&self) -> &idempotency::InFlight {
        &self.inner.in_flight
    }

    /// Unix seconds by the app's clock.
    pub fn now(&self) -> i64 {
        self.inner.usage.now()
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
        self.inner.keys.issue_session_key(name)
    }

    /// Accepts the session key `secret` (from [`App::issue_session_key`] of an earlier `App`
    /// in this process) again: the desktop window keeps its key when the store is reopened
    /// after a restore.
    pub fn keep_session_key(&self, name: &str, secret: &str) {
        self.inner.keys.keep_session_key(name, secret)
    }

    /// Adds usage and last-use times counted since the last save to the store.
    pub fn save_usage(&self) -> Result<(), StoreError> {
        maintenance::Maintained::save_usage(&*self.inner)
    }

    /// Saves usage, stops the store's threads and checkpoints the WAL. Call after every
    /// `serve` of this app has returned.
    pub fn close(&self) {
        self.inner.maintenance.stop();
        self.inner.backups.stop();
        if let Err(err) = self.save_usage() {
            tracing::warn!(%err, "saving usage at shutdown failed");
        }
        // A ban started since the last sharing (under a second ago) is kept for the next start.
        if let Err(err) = self.inner.usage.sync_bans(&self.inner.store) {
            tracing::warn!(%err, "saving bans at shutdown failed");
        }
        self.inner.store.close();
    }
}

impl maintenance::Maintained for Inner {
    fn reload_keys(&self) -> Result<(), StoreError> {
        self.keys.reload_blocking()
    }

    fn save_usage(&self) -> Result<(), StoreError> {
        self.usage.save(&self.store, self.keys.keyring())?;
        staff::save_session_uses(&self.store, self.keys.keyring())
    }

    fn sync_bans(&self) -> Result<(), StoreError> {
        self.usage.sync_bans(&self.store)
    }

    fn forget_idle(&self) {
        self.usage.forget_idle();
    }

    fn prune(&self) -> Result<usize, StoreError> {
        self.store.prune().wait()
    }
}
