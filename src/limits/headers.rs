//! Field values of the IETF rate-limit header fields.
//!
//! Written to draft-ietf-httpapi-ratelimit-headers-11 (23 May 2026, the latest revision):
//! `RateLimit-Policy` is a List of quota policy Items,
//! each a String naming the policy with parameters `q` (quota) and `w` (window, seconds);
//! `RateLimit` is a List of service limit Items with `r` (quota left) and `t` (seconds until
//! the window resets). Our two policies are named `"minute"` and `"day"`. Lists are serialised
//! as RFC 9651 does, members joined by `", "`. The `X-RateLimit-*` fields need no helper: they
//! are [`Status::binding`]'s `limit`, `remaining` and `reset`.

use super::window::{DAY_SECS, MINUTE_SECS};
use super::{Quota, Status};

/// Largest Integer a structured field may carry (RFC 9651 §3.3.1); larger quotas are capped.
const SF_INTEGER_MAX: u64 = 999_999_999_999_999;

fn sf_int(n: u64) -> u64 {
    n.min(SF_INTEGER_MAX)
}

/// The `RateLimit-Policy` field value for `quota`, e.g.
/// `"minute";q=60;w=60, "day";q=1000;w=86400`.
pub fn policy_header(quota: Quota) -> String {
    format!(
        "\"minute\";q={};w={MINUTE_SECS}, \"day\";q={};w={DAY_SECS}",
        sf_int(quota.per_minute),
        sf_int(quota.per_day),
    )
}

/// The `RateLimit` field value for `status`, e.g. `"minute";r=59;t=42, "day";r=998;t=3600`.
pub fn ratelimit_header(status: &Status) -> String {
    format!(
        "\"minute\";r={};t={}, \"day\";r={};t={}",
        sf_int(status.minute.remaining),
        status.minute.reset_after,
        sf_int(status.day.remaining),
        status.day.reset_after,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-22T23:00:18Z: 42 s left of the minute, 3,582 s of the day.
    const NOW: i64 = 1_795_305_600 + 23 * 3_600 + 18;

    #[test]
    fn the_policy_header_lists_the_minute_and_the_day() {
        let quota = Quota {
            per_minute: 60,
            per_day: 1_000,
        };
        assert_eq!(
            policy_header(quota),
            "\"minute\";q=60;w=60, \"day\";q=1000;w=86400"
        );
    }

    #[test]
    fn the_ratelimit_header_reports_remaining_and_seconds_to_reset() {
        let quota = Quota {
            per_minute: 60,
            per_day: 1_000,
        };
        let status = Status::at(quota, 1, 2, NOW);
        assert_eq!(
            ratelimit_header(&status),
            "\"minute\";r=59;t=42, \"day\";r=998;t=3582"
        );
    }

    #[test]
    fn huge_quotas_are_capped_to_the_structured_field_integer_range() {
        let quota = Quota {
            per_minute: u64::MAX,
            per_day: u64::MAX,
        };
        assert_eq!(
            policy_header(quota),
            "\"minute\";q=999999999999999;w=60, \"day\";q=999999999999999;w=86400"
        );
        assert!(ratelimit_header(&Status::at(quota, 0, 0, NOW)).contains("r=999999999999999;"));
    }
}
