//! Middleware: the request log, error-shape net and security headers around everything,
//! reading each request body to its end, and the authentication, rate limiting, deadline
//! and `X-Stability` (looked up in [`contract::OPERATIONS`]) of the interface's operations.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{header, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;

use super::access_log;
use super::conditional;
use super::error::ApiError;
use super::host;
use super::limit;
use super::state::AppState;
use crate::auth::Caller;
use crate::contract;
use crate::store;
use crate::store::Claim;

/// The key name of a request, for the log line (never the secret).
#[derive(Clone)]
struct KeyName(String);

/// The address the request came from: the connection's peer, as the listener records it.
/// `None` for a request that did not come through the listener; each caller says what that
/// means (the key limiter counts it as this machine's, the public limiter leaves it alone).
pub fn client_addr(req: &Request) -> Option<std::net::IpAddr> {
    req.extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
}

/// The secret a request presents: `X-API-Key`, or `Authorization: Bearer`. An
/// `Authorization` header that is not a bearer token presents no key at all, even beside an
/// `X-API-Key`: credentials the server cannot read are refused (401), never passed over.
fn presented_secret(req: &Request) -> Option<&str> {
    let headers = req.headers();
    let bearer = match headers.get(header::AUTHORIZATION) {
        None => None,
        Some(value) => Some(bearer_token(value)?),
    };
    if let Some(key) = headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
        return Some(key.trim());
    }
    bearer
}

/// The token of `Authorization: Bearer <token>` (the scheme in any case).
fn bearer_token(value: &HeaderValue) -> Option<&str> {
    let (scheme, token) = value.to_str().ok()?.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Resolves the caller, applies the rate limit and answers 401 for a missing or unknown
/// key. Every answer, refusals included, carries the rate-limit headers. (The event stream's
/// layer: it is long-lived by design, so no deadline.)
pub async fn authenticate(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let stability = stability(&req);
    marked(stability, admit(&s, req, |req| next.run(req)).await)
}

/// The layer of every other operation of the interface: the caller admitted as
/// [`authenticate`] does, then a conditional `GET` answered 304 when the client has the
/// record ([`conditional::not_modified`]), within the request deadline ([`deadline`]). One
/// layer instead of three: each layer on a route costs every request a boxed clone.
pub async fn operation(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let timeout = s.app.settings().request_timeout;
    let stability = stability(&req);
    let response = admit(&s, req, move |req| {
        conditional::not_modified(req, move |req| within(timeout, next.run(req)))
    })
    .await;
    marked(stability, response)
}

/// The `X-Stability` of the operation `req` is routed to, from the contract's table
/// (`None` for a stable operation, or a route that is no operation).
fn stability(req: &Request) -> Option<HeaderValue> {
    let path = req.extensions().get::<MatchedPath>()?.as_str();
    let operation = contract::operation(req.method().as_str(), path)?;
    operation.stability.sent().map(HeaderValue::from_static)
}

/// `response` with the `X-Stability` of its operation, when there is one to send.
fn marked(stability: Option<HeaderValue>, mut response: Response) -> Response {
    if let Some(value) = stability {
        response
            .headers_mut()
            .insert(HeaderName::from_static("x-stability"), value);
    }
    response
}

/// The caller of `req` resolved and counted; `run` answers it when it is let in.
async fn admit<F, Fut>(s: &AppState, mut req: Request, run: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    let now = s.app.now();
    let addr = client_addr(&req).unwrap_or(std::net::IpAddr::from([127, 0, 0, 1]));
    // The desktop window's in-memory key is for this machine only: from the LAN it is no key.
    let secret = presented_secret(&req).map(str::to_owned);
    let caller: Option<Arc<Caller>> = match secret {
        Some(secret) => resolve(s, &secret, now, addr).await,
        None => None,
    }
    .filter(|caller| !caller.is_session() || is_this_machine(addr));
    let decision = s.app.settings().rate_limits.is_on().then(|| {
        let keyless = s.app.settings().keyless;
        limit::check(s.app.limiter(), caller.as_deref(), addr, keyless)
    });
    let key_name = caller.as_ref().map(|c| KeyName(c.name.clone()));
    let mut response = match (&decision, caller) {
        (Some((decision, _)), _) if !decision.is_allowed() => {
            limit::refusal(decision).unwrap_or_else(|| ApiError::internal().into_response())
        }
        (_, None) => ApiError::unauthorized().into_response(),
        (_, Some(caller)) => {
            let member = caller.member();
            req.extensions_mut().insert(caller);
            store::as_member(member, run(req)).await
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

/// The caller `secret` belongs to. A secret the keyring does not know is looked up in the
/// store (made on another process a moment ago), unless its address is banned: a banned
/// address's requests are refused anyway and make no reads.
async fn resolve(
    s: &AppState,
    secret: &str,
    now: i64,
    addr: std::net::IpAddr,
) -> Option<Arc<Caller>> {
    if let Some(caller) = s.app.keyring().resolve(secret, now) {
        return Some(caller);
    }
    let banned = s.app.settings().rate_limits.is_on()
        && s.app
            .limiter()
            .banned_until(&crate::limits::Subject::Addr(crate::limits::client_net(
                addr,
            )))
            .is_some();
    if banned {
        return None;
    }
    s.app.keys().resolve_fresh(secret, now).await
}

/// Answers 408 when a request takes longer than the request timeout, unless one of its
/// writes has already started: then the request waits for that write's answer, because a
/// client must never be told "no" about a change that happened. A request given up (timed
/// out, or its client gone) takes its writes that have not started with it.
pub async fn deadline(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let stability = stability(&req);
    marked(
        stability,
        within(s.app.settings().request_timeout, next.run(req)).await,
    )
}

/// `run`'s answer within `timeout`, as [`deadline`] describes.
async fn within(timeout: Duration, run: impl Future<Output = Response>) -> Response {
    struct GiveUpOnDrop(Arc<Claim>);
    impl Drop for GiveUpOnDrop {
        fn drop(&mut self) {
            self.0.abandon();
        }
    }
    let claim = Claim::new();
    let _give_up = GiveUpOnDrop(claim.clone());
    let run = claim.clone().scope(run);
    tokio::pin!(run);
    match tokio::time::timeout(timeout, &mut run).await {
        Ok(response) => response,
        Err(_) if claim.abandon() => {
            ApiError::for_status(StatusCode::REQUEST_TIMEOUT).into_response()
        }
        Err(_) => run.await,
    }
}

/// Whether a connection comes from this machine (loopback, IPv4 or IPv6).
fn is_this_machine(addr: std::net::IpAddr) -> bool {
    match addr {
        std::net::IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map_or(v6.is_loopback(), |v4| v4.is_loopback()),
        v4 => v4.is_loopback(),
    }
}

/// Most bytes of a request body read before answering; the rest of a larger body is left
/// unread and the connection closed after the answer.
const DRAIN_LIMIT: usize = 4 * 1024 * 1024;

/// Reads the request body to its end before anything answers, keeping at most one byte over
/// its operation's limit (`contract::body_limit`: [`BODY_LIMIT`](super::extract::BODY_LIMIT) unless the operations table
/// says more) (enough for the JSON extractor to answer 413). An answer sent while the
/// client is still sending makes the socket close with a reset, and the client loses the
/// answer: a 413, or a 401, 403, 404 or 415 decided before the body mattered.
async fn read_body<F, Fut>(s: &AppState, req: Request, run: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    // Nothing to read (a GET without a body): no copy of it to make.
    if axum::body::HttpBody::is_end_stream(req.body()) {
        return run(req).await;
    }
    let (parts, body) = req.into_parts();
    let timeout = s.app.settings().request_timeout;
    let limit = crate::contract::body_limit(parts.uri.path());
    let (kept, complete) = match tokio::time::timeout(timeout, read_capped(body, limit)).await {
        Ok(Ok(read)) => read,
        Ok(Err(_)) => return closing(ApiError::bad_request("the request body could not be read")),
        Err(_) => return closing(ApiError::for_status(StatusCode::REQUEST_TIMEOUT)),
    };
    let mut response = run(Request::from_parts(parts, Body::from(kept))).await;
    if !complete {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// The first `limit + 1` bytes of `body`, and whether it was read to its end (it is
/// drained up to [`DRAIN_LIMIT`], or past it to the end of a body within `limit`).
async fn read_capped(body: Body, limit: usize) -> Result<(Bytes, bool), axum::Error> {
    let mut stream = body.into_data_stream();
    let mut kept = Vec::new();
    let mut seen = 0usize;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk?;
        seen = seen.saturating_add(chunk.len());
        let room = (limit + 1).saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if seen > DRAIN_LIMIT.max(limit + 1) {
            return Ok((kept.into(), false));
        }
    }
    Ok((kept.into(), true))
}

fn closing(error: ApiError) -> Response {
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// The layer every request goes through, outermost but for CORS: [`track`] around the
/// `Host` check ([`host::check`]) around [`read_body`]. One layer instead of three: each
/// layer costs every request a boxed clone of what it wraps and a boxed future.
pub async fn every(State(s): State<AppState>, req: Request, next: Next) -> Response {
    track(req, |req| {
        host::check(&s, req, |req| read_body(&s, req, |req| next.run(req)))
    })
    .await
}

/// One log line per request (method, path, status, duration, key name), the error shape
/// for answers the framework made itself (405, 413, 408, …), and the security headers.
async fn track<F, Fut>(req: Request, run: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let mut response = run(req).await;
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
    // Refusals (401, 429) come in floods when someone hammers the server: log a sample.
    let refusal = matches!(status.as_u16(), 401 | 429);
    if let Some(unlogged) = if refusal { REFUSALS.sample() } else { Some(0) } {
        access_log::record(&access_log::Request {
            method: method.as_str(),
            path: &path,
            status: status.as_u16(),
            took: started.elapsed(),
            key,
            unlogged,
        });
    }
    guard(response.headers_mut());
    response
}

/// The headers every answer carries unless its handler set its own: no framing, no
/// sniffing, and the content policy of the UI and the docs. The values are constants, made
/// once when the program is built.
fn guard(headers: &mut axum::http::HeaderMap) {
    const POLICIES: [(header::HeaderName, HeaderValue); 3] = [
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
    ];
    headers.reserve(POLICIES.len());
    for (name, value) in POLICIES {
        headers.entry(name).or_insert(value);
    }
}

/// What the UI and the docs may load: only this server's own files (shops are offline),
/// inline styles (the docs' renderer sets them), `data:` images (icons), and no framing.
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
    object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Refusals logged: at most [`RefusalSample::PER_SECOND`] a second, the rest counted.
static REFUSALS: RefusalSample = RefusalSample::new();

struct RefusalSample {
    second: std::sync::atomic::AtomicU64,
    logged: std::sync::atomic::AtomicU64,
    unlogged: std::sync::atomic::AtomicU64,
}

impl RefusalSample {
    const PER_SECOND: u64 = 5;

    const fn new() -> Self {
        Self {
            second: std::sync::atomic::AtomicU64::new(0),
            logged: std::sync::atomic::AtomicU64::new(0),
            unlogged: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// `Some(refusals not logged since the last logged one)` to log this one, `None` to skip.
    fn sample(&self) -> Option<u64> {
        self.sample_at(u64::try_from(chrono::Utc::now().timestamp()).unwrap_or(0))
    }

    fn sample_at(&self, now: u64) -> Option<u64> {
        use std::sync::atomic::Ordering::Relaxed;
        if self.second.swap(now, Relaxed) != now {
            self.logged.store(0, Relaxed);
        }
        if self.logged.fetch_add(1, Relaxed) < Self::PER_SECOND {
            Some(self.unlogged.swap(0, Relaxed))
        } else {
            self.unlogged.fetch_add(1, Relaxed);
            None
        }
    }
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

#[cfg(test)]
mod tests {
    use super::RefusalSample;

    #[test]
    fn a_flood_of_refusals_logs_a_few_a_second_and_counts_the_rest() {
        let sample = RefusalSample::new();
        let logged: Vec<_> = (0..20).map(|_| sample.sample_at(100)).collect();
        assert_eq!(logged.iter().filter(|l| l.is_some()).count(), 5);
        assert_eq!(
            sample.sample_at(101),
            Some(15),
            "the next second says how many went unlogged"
        );
    }
}
