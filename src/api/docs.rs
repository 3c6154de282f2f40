//! The published description of the interface and its interactive reference.
//!
//! `GET /openapi.json` answers the OpenAPI 3.0.3 document in `openapi/openapi.json` (written by
//! `openapi/generate.py`), compiled in as-is, so the binary always describes itself.
//! `GET /docs` (and `/docs/`) answers the reference page and `GET /docs/{file}` its script and
//! styles, all from `assets/docs/` embedded in the binary: the page loads nothing from the
//! network, because shops are offline, and its test panels call this same server.
//!
//! These routes sit outside the interface: no key, no rate limit, `Cache-Control: no-cache`.

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::embedded;

/// The OpenAPI document the server publishes at `/openapi.json`.
pub const OPENAPI_JSON: &str = include_str!("../../openapi/openapi.json");

/// The reference page and the vendored files it needs (see `assets/docs/README.md`).
#[derive(rust_embed::Embed)]
#[folder = "assets/docs/"]
#[exclude = "README.md"]
struct DocsFiles;

/// Routes for `/openapi.json`, `/docs`, `/docs/` and `/docs/{file}`.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/openapi.json", get(openapi_document))
        .route("/docs", get(index))
        .route("/docs/", get(index))
        .route("/docs/{file}", get(file))
}

async fn openapi_document() -> Response {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        OPENAPI_JSON,
    )
        .into_response()
}

async fn index(headers: HeaderMap) -> Response {
    embedded::serve::<DocsFiles>("index.html", &headers)
}

async fn file(Path(file): Path<String>, headers: HeaderMap) -> Response {
    embedded::serve::<DocsFiles>(&file, &headers)
}
