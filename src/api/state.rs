//! What every handler can reach: the app and the signal that the listener is shutting down.
//! One `Arc` around both, so the copies the middleware and the extractors take of it cost one
//! reference count each.

use std::ops::Deref;
use std::sync::Arc;

use tokio::sync::watch;

use crate::app::App;

#[derive(Clone)]
pub struct AppState(Arc<Shared>);

pub struct Shared {
    pub app: App,
    /// Turns `true` when this listener starts shutting down (long streams end then).
    pub shutdown: watch::Receiver<bool>,
    /// The CSV exports being written now (a few at once, one per key).
    pub exports: super::transfer::ExportGate,
}

impl AppState {
    pub fn new(app: App, shutdown: watch::Receiver<bool>) -> Self {
        Self(Arc::new(Shared {
            app,
            shutdown,
            exports: Default::default(),
        }))
    }
}

impl Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}
