//! What every handler can reach: the app and the signal that the listener is shutting down.

use tokio::sync::watch;

use crate::app::App;

#[derive(Clone)]
pub struct AppState {
    pub app: App,
    /// Turns `true` when this listener starts shutting down (long streams end then).
    pub shutdown: watch::Receiver<bool>,
}
