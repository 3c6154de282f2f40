//! HTTP only: the route table, one file per resource, the extractors and the middleware.
//! Handlers parse (bodies into domain values, `If-Match` into a `Precondition`), make one
//! named store call (`s.app.store().pets().create(new)`) and shape the answer; the rules
//! are in `domain`, the SQL in `store`, and HTTP stops here.

mod admin;
mod backups;
mod categories;
mod connections;
mod csv;
mod docs;
mod embedded;
mod error;
mod events;
mod extract;
mod health;
mod idempotent;
mod inventory;
mod limit;
mod listener;
mod middleware;
mod nofile;
mod orders;
mod pairings;
mod pets;
mod profile;
mod public_limit;
mod query;
mod reports;
mod respond;
mod router;
mod session;
mod staff;
mod state;
mod stocktakes;
mod transfer;
mod ui;

use std::future::Future;

use tokio::net::TcpListener;
use tokio::sync::watch;

pub use error::ApiError;
pub use state::AppState;

use crate::app::App;

/// The OpenAPI document the server publishes at `/openapi.json`.
pub const OPENAPI_JSON: &str = docs::OPENAPI_JSON;

/// The application's router, answering requests without a socket (the demo fills a new store
/// through it). Dropping the sender tells long streams to end.
pub(crate) fn router_for(app: App) -> (axum::Router, watch::Sender<bool>) {
    let (stop, stopped) = watch::channel(false);
    let router = router::build(AppState {
        app,
        shutdown: stopped,
    });
    (router, stop)
}

/// Serves `app` on `listener` until `shutdown` completes, then stops taking connections,
/// ends event streams, and returns once the requests in flight are answered or, at the
/// latest, after [`listener::SHUTDOWN_GRACE`]. Connections are capped and timed out as
/// [`listener`] describes.
pub async fn serve(
    listener: TcpListener,
    app: App,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (stop, stopped) = watch::channel(false);
    let router = router::build(AppState {
        app,
        shutdown: stopped,
    });
    listener::run(listener, router, shutdown, stop).await
}

/// Raises this process's soft open-file limit to its hard limit; the limit in force after.
pub fn raise_open_file_limit() -> u64 {
    nofile::raise()
}
