//! The maintenance thread: every few seconds it saves usage and last-use times, re-reads
//! the keys (so `petstore keys revoke` from another process takes effect while serving),
//! shares bans with the other processes on the store every second,
//! and now and then prunes old events and idempotency records. It holds only a weak handle,
//! so it ends with the app.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often day counts and last-use times are saved, and other processes' counts read
/// back: a process runs ahead of the others by at most this (plus their own) period of
/// traffic, 4 s in all (docs/rate-limits.md).
const SAVE_EVERY: Duration = Duration::from_secs(2);
/// How often keys are re-read from the store: a key revoked (or a role changed) by another
/// process, on the same PostgreSQL database or by `petstore keys` on the file, takes effect
/// here within about a second, under the 2 s the interface promises.
const RELOAD_KEYS_EVERY: Duration = Duration::from_secs(1);
/// How often old events and idempotency records are pruned.
const PRUNE_EVERY: Duration = Duration::from_secs(600);

/// What the thread needs of the app; `super::Inner` provides it.
pub trait Maintained: Send + Sync + 'static {
    fn reload_keys(&self) -> Result<(), crate::store::StoreError>;
    fn save_usage(&self) -> Result<(), crate::store::StoreError>;
    /// Shares bans with the other processes serving the store (every second, so a ban
    /// reaches them within about 2 s).
    fn sync_bans(&self) -> Result<(), crate::store::StoreError>;
    fn forget_idle(&self);
    fn prune(&self) -> Result<usize, crate::store::StoreError>;
}

/// The running thread, stopped by [`Maintenance::stop`].
#[derive(Default)]
pub struct Maintenance {
    running: Mutex<Option<(mpsc::Sender<()>, JoinHandle<()>)>>,
}

impl Maintenance {
    /// Starts the thread over `app`.
    pub fn start<A: Maintained>(&self, app: Weak<A>) -> std::io::Result<()> {
        let (stop, stopped) = mpsc::channel::<()>();
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
                    let Some(app) = app.upgrade() else { return };
                    tick(&*app, ticks);
                }
            })?;
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = Some((stop, thread));
        Ok(())
    }

    /// Stops the thread and waits for it.
    pub fn stop(&self) {
        let running = self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some((stop, thread)) = running {
            let _ = stop.send(());
            let _ = thread.join();
        }
    }
}

fn tick(app: &impl Maintained, ticks: u64) {
    let due = |every: Duration| ticks.is_multiple_of(every.as_secs());
    if due(RELOAD_KEYS_EVERY) {
        if let Err(err) = app.reload_keys() {
            tracing::warn!(%err, "re-reading keys failed");
        }
        if let Err(err) = app.sync_bans() {
            tracing::warn!(%err, "sharing bans failed");
        }
    }
    if due(SAVE_EVERY) {
        if let Err(err) = app.save_usage() {
            tracing::warn!(%err, "saving usage failed");
        }
        app.forget_idle();
    }
    if due(PRUNE_EVERY) {
        if let Err(err) = app.prune() {
            tracing::warn!(%err, "pruning old records failed");
        }
    }
}
