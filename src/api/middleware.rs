//! Middleware: the request log and error-shape net around everything, and the
//! authentication and rate limiting of the interface's operations.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::limit;
use super::state::AppState;
use crate::auth::Caller;

/// The key name of a request, for the log line (never the secret).
#[derive(Clone)]
struct KeyName(String);

/// The secret a request presents: `X-API-Key`, or `Authorization: Bearer`.
fn presented_secret(req: &Request) -> Option<&str> {
    let headers = req.headers();
    if let Some(key) = headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
        return Some(key.trim());
    }
    let auth = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = auth.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// Resolves the caller, applies the rate limit and answers 401 for a missing or unknown
/// key. Every answer, refusals included, carries the rate-limit headers.
pub async fn authenticate(State(s): State<AppState>, mut req: Request, next: Next) -> Response {
    let now = s.app.now();
    let caller: Option<Arc<Caller>> =
        presented_secret(&req).and_then(|secret| s.app.keyring().resolve(secret, now));
    let addr = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(std::net::IpAddr::from([127, 0, 0, 1]), |c| c.0.ip());
    let decision = s
        .app
        .settings()
        .rate_limits
        .then(|| limit::check(s.app.limiter(), caller.as_deref(), addr));
    let key_name = caller.as_ref().map(|c| KeyName(c.name.clone()));
    let mut response = match (&decision, caller) {
        (Some((decision, _)), _) if !decision.is_allowed() => {
            limit::refusal(decision).unwrap_or_else(|| ApiError::internal().into_response())
        }
        (_, None) => ApiError::unauthorized().into_response(),
        (_, Some(caller)) => {
            req.extensions_mut().insert(caller);
            next.run(req).await
        }
    };
    if let Some((decision, quota)) = &decision {
        limit::add_headers(response.headers_mut(), decision, *quota);
    }
    if let Some(name) = key_name {
        response.extensions_mut().insert(name);
    }
    response
}

/// One log line per request (method, path, status, duration, key name), and the error
/// shape for answers the framework made itself (405, 413, 408, …).
pub async fn track(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let mut response = next.run(req).await;
    let status = response.status();
    if status.as_u16() >= 400 && method != Method::HEAD && !is_json(&response) {
        let mut replaced = ApiError::for_status(status).into_response();
        for (name, value) in response.headers() {
            if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
                replaced.headers_mut().insert(name.clone(), value.clone());
            }
        }
        *replaced.extensions_mut() = std::mem::take(response.extensions_mut());
        response = replaced;
    }
    let key = response
        .extensions()
        .get::<KeyName>()
        .map_or("-", |k| k.0.as_str());
    tracing::info!(
        target: "petstore::request",
        "{method} {path} {} {:.1}ms key={key}",
        status.as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    response
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}
