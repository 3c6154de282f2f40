//! Rate limits: plans, fixed-window quotas and temporary bans.
//!
//! This module is plain data and pure functions with an injectable [`Clock`]: it knows nothing
//! of HTTP, axum, SQLite or tokio. The `api` layer asks a [`Limiter`] for a [`Decision`] on every
//! request and turns it into a status code and headers; the `store` layer persists the
//! [`Limiter::counts`] snapshot of [`Span::Day`] so that a restart does not reset a key's day.
//!
//! # Contract (spec "Rate limits")
//!
//! - A [`Plan`] sets a [`Quota`]: Free 60 a minute and 1,000 a day, Pro 300 and 10,000, Business
//!   1,000 and 100,000, Enterprise the numbers set on the key. Requests without a valid key are
//!   counted per client address ([`Subject::Addr`]) under the Free plan.
//! - Windows are fixed: the current UTC minute (`floor(now / 60) * 60`) and the current UTC day
//!   (`floor(now / 86400) * 86400`).
//! - A request is refused ([`Decision::Limited`], 429 `rate_limited`) when either window is full.
//!   A refused request uses no quota in either window. `Retry-After` is the whole seconds until
//!   the full window resets, at least 1. When both windows are full it is the time until the
//!   window that resets *later* (always the day, whose end is also a minute's end): a retry
//!   before then would be refused again, so a shorter value would only invite a wasted request.
//! - Refusals are counted per subject in fixed windows of [`BanPolicy::window_secs`]. The
//!   refusal that takes the count above [`BanPolicy::max_rejections`] is still answered
//!   `rate_limited` and starts a ban of [`BanPolicy::ban_secs`]; from the next request on, until
//!   the ban ends, every request gets [`Decision::Banned`] (429 `temporarily_banned`) with
//!   `Retry-After` the seconds left of the ban. Banned requests use no quota and count no
//!   refusals. Bans expire by themselves; [`Limiter::lift_ban`] also clears the refusal count.
//! - Every decision carries the [`Status`] of both windows. `X-RateLimit-*` use
//!   [`Status::binding`] (the window with fewer requests left, the minute on a tie); the IETF
//!   `RateLimit-Policy` and `RateLimit` fields list both ([`policy_header`], [`ratelimit_header`]).
//!
//! # Concurrency and memory
//!
//! Subjects live in a fixed number of shards, each a `Mutex<HashMap>` chosen by hash, so callers
//! only contend when their subjects share a shard, and every lock is held for a few map
//! operations without any I/O. [`Limiter::forget_idle`] drops subjects with nothing left to
//! remember; a subject that made a request today is kept until the day ends, because its day
//! count still matters.

mod ban;
mod client;
mod clock;
mod headers;
mod limiter;
mod places;
mod plan;
mod window;

#[cfg(test)]
mod tests;

pub use ban::BanPolicy;
pub use client::client_net;
pub use clock::{Clock, SystemClock, TestClock};
pub use headers::{policy_header, ratelimit_header};
pub use limiter::{Decision, Limiter, Span, Subject};
pub use places::{Place, Refusal, StreamPlaces, DESKTOP_RESERVED, PER_CLIENT, PER_KEY};
pub use plan::{Plan, Quota, UnknownPlan};
pub use window::{day_start, minute_start, Status, WindowStatus, DAY_SECS, MINUTE_SECS};
