//! The staff web UI: `ui/` embedded in the binary, `/` for the page, `/ui/{path}` for its
//! modules, styles, icons and web app manifest, and `/sw.js` for the till's offline shell (a
//! service worker's scope is its own folder, so it is served from the root to cover `/`).
//! Nothing is fetched from the internet.
//!
//! `/sw.js` opens with the shell's manifest, written here from the embedded files: every path
//! the worker must keep before a till can start offline, and a version that changes with any
//! file, so an upgraded binary installs a new worker that keeps the new files all together.

use axum::extract::Path;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use sha2::{Digest, Sha256};

use super::embedded;
use super::error::ApiError;

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

/// `GET /sw.js`: the till's offline shell, from the root so its scope is the whole UI, opened
/// by `self.PETSTORE_SHELL = {"version": …, "files": […]};`.
async fn service_worker(headers: HeaderMap) -> Response {
    let Some(worker) = UiFiles::get("sw.js") else {
        return ApiError::not_found("there is no file named sw.js").into_response();
    };
    let (manifest, version) = shell_manifest();
    let mut body = format!("self.PETSTORE_SHELL = {manifest};\n").into_bytes();
    body.extend_from_slice(&worker.data);
    embedded::serve_bytes("sw.js", body, &version, &headers)
}

/// The shell's manifest as JSON (`/` for the page, then every file under `/ui/` but the pages
/// served elsewhere), and the SHA-256 of every embedded file's path and hash, which is its
/// version and the worker's ETag.
fn shell_manifest() -> (String, [u8; 32]) {
    let mut names: Vec<String> = UiFiles::iter().map(|name| name.into_owned()).collect();
    names.sort();
    let mut digest = Sha256::new();
    for name in &names {
        if let Some(file) = UiFiles::get(name) {
            digest.update(name.as_bytes());
            digest.update(file.metadata.sha256_hash());
        }
    }
    let version: [u8; 32] = digest.finalize().into();
    let files: Vec<String> = std::iter::once("/".to_owned())
        .chain(
            names
                .iter()
                .filter(|n| !matches!(n.as_str(), "index.html" | "pair.html" | "sw.js"))
                .map(|n| format!("/ui/{n}")),
        )
        .collect();
    let manifest = serde_json::json!({ "version": hex::encode(&version[..8]), "files": files });
    (manifest.to_string(), version)
}

async fn file(Path(path): Path<String>, headers: HeaderMap) -> Response {
    embedded::serve::<UiFiles>(&path, &headers)
}
