//! Conditional reads: a `GET` whose `If-None-Match` names the record's current `ETag` is
//! answered 304 with no body (the headers kept), so a till that polls a record it already
//! has pays for no JSON.

use std::future::Future;

use axum::extract::Request;
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::response::Response;

/// Turns `run`'s 200 answer to a `GET` into 304 when the client already has its `ETag`.
pub async fn not_modified<F, Fut>(req: Request, run: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    let asks = req.method() == Method::GET && req.headers().contains_key(header::IF_NONE_MATCH);
    if !asks {
        return run(req).await;
    }
    let conditions = req.headers().clone();
    let response = run(req).await;
    let current = response
        .headers()
        .get(header::ETAG)
        .and_then(|tag| tag.to_str().ok());
    match current {
        Some(etag)
            if response.status() == StatusCode::OK && if_none_match_hits(&conditions, etag) =>
        {
            let (mut parts, _) = response.into_parts();
            parts.status = StatusCode::NOT_MODIFIED;
            parts.headers.remove(header::CONTENT_TYPE);
            parts.headers.remove(header::CONTENT_LENGTH);
            Response::from_parts(parts, axum::body::Body::empty())
        }
        _ => response,
    }
}

/// Whether `If-None-Match` in `request` names `etag` (or is `*`), compared weakly as
/// RFC 9110 asks for `If-None-Match`.
pub fn if_none_match_hits(request: &HeaderMap, etag: &str) -> bool {
    let etag = etag.trim_start_matches("W/");
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|tag| tag.trim().trim_start_matches("W/"))
        .any(|tag| tag == "*" || tag == etag)
}
