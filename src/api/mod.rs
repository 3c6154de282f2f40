//! HTTP only: the route table, one file per resource, the extractors and the middleware.
//! Handlers parse (bodies into domain values, `If-Match` into a `Precondition`), make one
//! named store call (`s.app.store().pets().create(new)`) and shape the answer; the rules
//! are in `domain`, the SQL in `store`, and HTTP stops here.

mod admin;
mod categories;
mod docs;
mod embedded;
mod error;
mod events;
mod extract;
mod health;
mod idempotent;
mod inventory;
mod limit;
mod middleware;
mod orders;
mod pets;
mod query;
mod respond;
mod router;
mod state;
mod ui;

use std::future::Future;
use std::net::SocketAddr;

use tokio::net::TcpListener;
use tokio::sync::watch;

pub use error::ApiError;
pub use state::AppState;

use crate::app::App;

/// The OpenAPI document the server publishes at `/openapi.json`.
pub const OPENAPI_JSON: &str = docs::OPENAPI_JSON;

/// Serves `app` on `listener` until `shutdown` completes, then stops taking connections,
/// ends event streams, and returns once the requests in flight are answered.
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
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        shutdown.await;
        let _ = stop.send(true);
    })
    .await
}
