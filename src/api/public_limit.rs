//! A cheap limit on the public routes (`/health`, `/docs`, `/openapi.json`, the UI files and
//! unknown addresses), which need no key and so escape the plans' limits.
//!
//! Each client network (see [`client_net`]) may make [`PER_MINUTE`] such requests in a fixed
//! minute; more are answered 429 with `Retry-After`. This machine (loopback) is not limited:
//! it is the desktop window itself. At most [`MOST_TRACKED`] clients are remembered; when
//! that many are counted in the current minute, the oldest minute's entries go first, and a
//! newcomer past the bound is served uncounted rather than let memory grow.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, OnceLock};

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use crate::contract::Code;
use crate::limits::client_net;

/// Public requests one client network may make in a minute.
pub const PER_MINUTE: u32 = 600;
/// Most client networks remembered at once.
pub const MOST_TRACKED: usize = 16_384;

/// Counts per client network in the current minute.
#[derive(Default)]
pub struct PublicLimiter {
    counts: Mutex<HashMap<IpAddr, (u64, u32)>>,
}

impl PublicLimiter {
    /// Counts a request of `addr` at Unix second `now`: `None` to serve it, or the seconds to
    /// wait.
    pub fn check(&self, addr: IpAddr, now: u64) -> Option<u64> {
        if addr.is_loopback() || client_net(addr).is_loopback() {
            return None;
        }
        let client = client_net(addr);
        let minute = now / 60;
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.len() >= MOST_TRACKED && !counts.contains_key(&client) {
            counts.retain(|_, (m, _)| *m == minute);
            if counts.len() >= MOST_TRACKED {
                return None;
            }
        }
        let entry = counts.entry(client).or_insert((minute, 0));
        if entry.0 != minute {
            *entry = (minute, 0);
        }
        if entry.1 >= PER_MINUTE {
            return Some((minute + 1) * 60 - now);
        }
        entry.1 += 1;
        None
    }
}

fn limiter() -> &'static PublicLimiter {
    static LIMITER: OnceLock<PublicLimiter> = OnceLock::new();
    LIMITER.get_or_init(PublicLimiter::default)
}

/// The middleware: 429 past the limit.
pub async fn limit(req: Request, next: Next) -> Response {
    let addr = super::middleware::client_addr(&req);
    let now = u64::try_from(chrono::Utc::now().timestamp()).unwrap_or(0);
    if let Some(wait) = addr.and_then(|addr| limiter().check(addr, now)) {
        return ApiError::new(
            Code::RateLimited,
            format!("too many requests from this address; retry after {wait} seconds"),
        )
        .with_retry_after(wait.max(1))
        .into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lan_client_past_the_public_limit_waits_for_the_next_minute() {
        let limiter = PublicLimiter::default();
        let addr: IpAddr = "192.0.2.9".parse().expect("address");
        for _ in 0..PER_MINUTE {
            assert_eq!(limiter.check(addr, 6_000), None);
        }
        assert_eq!(limiter.check(addr, 6_010), Some(50));
        assert_eq!(limiter.check(addr, 6_060), None);
    }

    #[test]
    fn this_machine_is_never_limited_on_public_routes() {
        let limiter = PublicLimiter::default();
        let addr: IpAddr = "127.0.0.1".parse().expect("address");
        for _ in 0..PER_MINUTE * 2 {
            assert_eq!(limiter.check(addr, 6_000), None);
        }
    }
}
