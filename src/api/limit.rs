//! The HTTP side of rate limiting: which subject and quota a request counts against, the
//! headers every answer carries, and the 429 answers. The policy itself is in
//! [`crate::limits`].

use std::future::Future;
use std::net::IpAddr;

use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, HeaderName, HeaderValue};
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::extract::JsonBody;
use super::state::AppState;
use crate::auth::Caller;
use crate::contract::Code;
use crate::limits::{
    client_net, policy_header, ratelimit_header, Decision, Limiter, Quota, Subject,
};

/// Counts a request of `caller` (or of the client's network, for a request with no valid
/// key: an IPv4 address or an IPv6 /64, held to the `keyless` quota).
pub fn check(
    limiter: &Limiter,
    caller: Option<&Caller>,
    addr: IpAddr,
    keyless: Quota,
) -> (Decision, Quota) {
    let (subject, quota) = match caller {
        Some(caller) => (caller.subject(), caller.quota),
        None => (Subject::Addr(client_net(addr)), keyless),
    };
    (limiter.check(&subject, quota), quota)
}

/// The 429 answer for a refused request.
pub fn refusal(decision: &Decision) -> Option<Response> {
    let retry_after = decision.retry_after()?;
    let code = decision.error_code()?;
    let message = match code {
        Code::TemporarilyBanned => format!(
            "too many requests over the limit; this caller is banned for {retry_after} more seconds"
        ),
        _ => format!("rate limit reached; retry after {retry_after} seconds"),
    };
    let error = ApiError::new(code, message);
    Some(error.with_retry_after(retry_after).into_response())
}

/// Adds the rate-limit headers of `decision` to an answer.
pub fn add_headers(headers: &mut HeaderMap, decision: &Decision, quota: Quota) {
    let status = decision.status();
    let binding = status.binding();
    let pairs = [
        ("x-ratelimit-limit", binding.limit.to_string()),
        ("x-ratelimit-remaining", binding.remaining.to_string()),
        ("x-ratelimit-reset", binding.reset.to_string()),
        ("ratelimit-policy", policy_header(quota)),
        ("ratelimit", ratelimit_header(status)),
    ];
    for (name, value) in pairs {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(HeaderName::from_static(name), value);
        }
    }
}

/// A keyless operation (`POST /pair`, `POST /session`): counted against the caller's address
/// like any request without a key, then its JSON body is read and `answer`ed with the
/// caller's address. The answer carries the rate-limit headers.
pub async fn keyless<T, F, Fut>(s: &AppState, req: Request, answer: F) -> Response
where
    JsonBody<T>: FromRequest<()>,
    <JsonBody<T> as FromRequest<()>>::Rejection: IntoResponse,
    F: FnOnce(T, IpAddr) -> Fut,
    Fut: Future<Output = Response>,
{
    let addr = super::middleware::client_addr(&req).unwrap_or(IpAddr::from([127, 0, 0, 1]));
    let decision = s
        .app
        .settings()
        .rate_limits
        .is_on()
        .then(|| check(s.app.limiter(), None, addr, s.app.settings().keyless));
    let mut response = match &decision {
        Some((decision, _)) if !decision.is_allowed() => {
            refusal(decision).unwrap_or_else(|| ApiError::internal().into_response())
        }
        _ => match JsonBody::<T>::from_request(req, &()).await {
            Ok(body) => answer(body.value, addr).await,
            Err(err) => err.into_response(),
        },
    };
    if let Some((decision, quota)) = &decision {
        add_headers(response.headers_mut(), decision, *quota);
    }
    response
}
