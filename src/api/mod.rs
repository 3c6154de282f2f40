//! HTTP only: the route table, one file per resource, the extractors and the middleware.
//! Handlers parse (bodies into domain values, `If-Match` into a `Precondition`), make one
//! named store call (`s.app.store().pets().create(new)`) and shape the answer; the rules
//! are in `domain`, the SQL in `store`, and HTTP stops here.

mod access_log;
mod admin;
mod animal_report;
mod backups;
mod care;
mod categories;
mod certificate;
mod conditional;
mod connections;
mod csv;
mod docs;
mod embedded;
mod error;
mod events;
mod extract;
mod health;
mod host;
mod idempotent;
mod inventory;
mod labels;
mod limit;
mod listener;
mod middleware;
mod nofile;
mod orders;
mod pairings;
mod pets;
mod profile;
mod public_limit;
mod purchase_orders;
mod query;
mod reports;
mod respond;
mod router;
mod sales;
mod session;
mod shifts;
mod staff;
mod state;
mod stocktakes;
mod suppliers;
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
    let router = router::build(AppState::new(app, stopped));
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
    serve_on(listener, app, false, shutdown).await
}

/// [`serve`] over HTTPS, with the store's own certificate (made beside the store the first
/// time, see [`crate::tls`]). The certificate is checked once a day while it serves and
/// renewed before it ends.
pub async fn serve_tls(
    listener: TcpListener,
    app: App,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_on(listener, app, true, shutdown).await
}

async fn serve_on(
    listener: TcpListener,
    app: App,
    https: bool,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let tls = if https {
        let tls = app
            .network()
            .tls()
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        Some(tls)
    } else {
        None
    };
    let acceptor = tls
        .as_ref()
        .map(|tls| tokio_rustls::TlsAcceptor::from(tls.server_config()));
    let renewals = tls.map(|tls| tokio::spawn(renew_daily(tls)));
    let listening = app.network().register(crate::app::network::Listening {
        addr: listener.local_addr()?,
        https,
    });
    let (stop, stopped) = watch::channel(false);
    let router = router::build(AppState::new(app.clone(), stopped));
    let served = listener::run(listener, router, acceptor, shutdown, stop).await;
    app.network().forget(listening);
    if let Some(renewals) = renewals {
        renewals.abort();
    }
    served
}

/// Renews the certificate when it is due, checking once a day.
async fn renew_daily(tls: std::sync::Arc<crate::tls::StoreTls>) {
    let mut daily = tokio::time::interval(std::time::Duration::from_secs(24 * 3600));
    daily.tick().await;
    loop {
        daily.tick().await;
        let tls = tls.clone();
        let renewed =
            tokio::task::spawn_blocking(move || tls.renew_if_due(chrono::Utc::now())).await;
        match renewed {
            Ok(Ok(true)) => tracing::info!("the store's HTTPS certificate was renewed"),
            Ok(Ok(false)) => {}
            Ok(Err(err)) => tracing::warn!(%err, "renewing the HTTPS certificate failed"),
            Err(err) => tracing::warn!(%err, "renewing the HTTPS certificate failed"),
        }
    }
}

/// Raises this process's soft open-file limit to its hard limit; the limit in force after.
pub fn raise_open_file_limit() -> u64 {
    nofile::raise()
}
