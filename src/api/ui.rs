//! The staff web UI: `ui/` embedded in the binary, `/` for the page, `/ui/{path}` for its
//! modules, styles, icons and web app manifest, and `/sw.js` for the till's offline shell (a
//! service worker's scope is its own folder, so it is served from the root to cover `/`).
//! Nothing is fetched from the internet.

use axum::extract::Path;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use super::embedded;

#[derive(rust_embed::Embed)]
#[folder = "ui/"]
#[include = "*.html"]
#[include = "*.js"]
#[include = "*.css"]
#[include = "*.svg"]
#[include = "*.png"]
#[include = "**/*.js"]
#[include = "**/*.css"]
#[include = "**/*.png"]
#[include = "*.webmanifest"]
struct UiFiles;

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/ui/{*path}", get(file))
        .route("/sw.js", get(service_worker))
}

async fn index(headers: HeaderMap) -> Response {
    embedded::serve::<UiFiles>("index.html", &headers)
}

/// `GET /pair?code=…`: the page a till opens from a pairing QR code.
pub async fn pair_page(headers: HeaderMap) -> Response {
    embedded::serve::<UiFiles>("pair.html", &headers)
}

/// `GET /sw.js`: the till's offline shell, from the root so its scope is the whole UI.
async fn service_worker(headers: HeaderMap) -> Response {
    embedded::serve::<UiFiles>("sw.js", &headers)
}

async fn file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    embedded::serve::<UiFiles>(&path, &headers)
}
