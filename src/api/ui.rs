//! The staff web UI: `ui/` embedded in the binary, `/` for the page and `/ui/{path}` for
//! its modules and styles. Nothing is fetched from the internet.

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
struct UiFiles;

pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/ui/{*path}", get(file))
}

async fn index(headers: HeaderMap) -> Response {
    embedded::serve::<UiFiles>("index.html", &headers)
}

/// `GET /pair?code=…`: the page a till opens from a pairing QR code.
pub async fn pair_page(headers: HeaderMap) -> Response {
    embedded::serve::<UiFiles>("pair.html", &headers)
}

async fn file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    embedded::serve::<UiFiles>(&path, &headers)
}
