//! Answering files embedded in the binary (the staff UI, the docs page): the right content
//! type, `Cache-Control: no-cache` so an upgraded binary is picked up at once, and a strong
//! `ETag` (the file's SHA-256) so revalidating costs a 304.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::conditional::if_none_match_hits;
use super::error::ApiError;

/// Answers `file` from the embedded folder `E`, a 304 when the client's copy is current,
/// or 404 in the interface's error shape.
pub fn serve<E: rust_embed::RustEmbed>(file: &str, request: &HeaderMap) -> Response {
    let Some(found) = E::get(file) else {
        return ApiError::not_found(format!("there is no file named {file}")).into_response();
    };
    serve_bytes(
        file,
        found.data.into_owned(),
        &found.metadata.sha256_hash(),
        request,
    )
}

/// Answers `data` as the file named `file` (for its content type), its ETag made from `sha256`.
pub fn serve_bytes(file: &str, data: Vec<u8>, sha256: &[u8; 32], request: &HeaderMap) -> Response {
    let etag = etag_of(sha256);
    let mut response = if if_none_match_hits(request, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut ok = data.into_response();
        ok.headers_mut()
            .insert(header::CONTENT_TYPE, content_type(file));
        ok
    };
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    response
}

fn content_type(file: &str) -> HeaderValue {
    let mime = mime_guess::from_path(file).first_or_octet_stream();
    let textual = mime.type_() == mime_guess::mime::TEXT
        || mime.subtype() == mime_guess::mime::JAVASCRIPT
        || mime.subtype() == mime_guess::mime::JSON;
    let value = if textual && mime.get_param(mime_guess::mime::CHARSET).is_none() {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    HeaderValue::from_str(&value)
        .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"))
}

fn etag_of(sha256: &[u8; 32]) -> String {
    format!("\"{}\"", hex::encode(sha256))
}
