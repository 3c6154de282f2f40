//! Fixed UTC windows and what is reported about them.
//!
//! A window is identified by its start, `floor(now / len) * len`; a count remembered for an
//! earlier start simply reads as zero, so nothing has to be reset when a window ends.

use super::Quota;

/// Length of the minute window in seconds.
pub const MINUTE_SECS: i64 = 60;
/// Length of the day window in seconds. Unix time has no leap seconds, so every UTC day is
/// exactly this long and starts at a multiple of it.
pub const DAY_SECS: i64 = 86_400;

/// Start of the fixed window of `len` seconds (> 0) that holds `now`.
pub(crate) fn window_start(now: i64, len: i64) -> i64 {
    now.div_euclid(len) * len
}

/// Start of the UTC minute holding `now`.
pub fn minute_start(now: i64) -> i64 {
    window_start(now, MINUTE_SECS)
}

/// Start of the UTC day (midnight) holding `now`.
pub fn day_start(now: i64) -> i64 {
    window_start(now, DAY_SECS)
}

/// Whole seconds from `now` until `at`, at least 1 (what `Retry-After` may say).
pub(crate) fn secs_until(at: i64, now: i64) -> u64 {
    u64::try_from(at.saturating_sub(now)).unwrap_or(0).max(1)
}

/// A count of events within one fixed window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counter {
    start: i64,
    count: u64,
}

impl Counter {
    /// The count in the window starting at `start`: zero if what is held is older.
    pub(crate) fn get(&self, start: i64) -> u64 {
        if self.start == start {
            self.count
        } else {
            0
        }
    }

    /// Counts one event in the window starting at `start` and returns the new count.
    pub(crate) fn add(&mut self, start: i64) -> u64 {
        if self.start != start {
            *self = Counter { start, count: 0 };
        }
        self.count = self.count.saturating_add(1);
        self.count
    }

    /// Makes the count in the window starting at `start` at least `count`.
    pub(crate) fn raise_to(&mut self, start: i64, count: u64) {
        let current = self.get(start);
        *self = Counter {
            start,
            count: current.max(count),
        };
    }

    /// The window it holds and its count, if that window is `start` and the count is not zero.
    pub(crate) fn current(&self, start: i64) -> Option<(i64, u64)> {
        (self.start == start && self.count > 0).then_some((self.start, self.count))
    }
}

/// The state of one window for one subject, as the rate-limit headers report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WindowStatus {
    /// The quota of the window (`X-RateLimit-Limit`).
    pub limit: u64,
    /// Requests counted in the window so far.
    pub used: u64,
    /// Requests left (`X-RateLimit-Remaining`); zero when `used` is at or over `limit`.
    pub remaining: u64,
    /// Unix seconds when the window resets (`X-RateLimit-Reset`).
    pub reset: i64,
    /// Whole seconds from the decision until `reset`, 1 to the window length (the `t` of the
    /// `RateLimit` field).
    pub reset_after: u64,
}

impl WindowStatus {
    fn new(limit: u64, used: u64, start: i64, len: i64, now: i64) -> Self {
        let reset = start + len;
        WindowStatus {
            limit,
            used,
            remaining: limit.saturating_sub(used),
            reset,
            reset_after: secs_until(reset, now),
        }
    }
}

/// Both windows of one subject at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// The current UTC minute.
    pub minute: WindowStatus,
    /// The current UTC day.
    pub day: WindowStatus,
}

impl Status {
    /// The status at `now` of a subject that has used `minute_used` and `day_used` requests.
    pub(crate) fn at(quota: Quota, minute_used: u64, day_used: u64, now: i64) -> Self {
        Status {
            minute: WindowStatus::new(
                quota.per_minute,
                minute_used,
                minute_start(now),
                MINUTE_SECS,
                now,
            ),
            day: WindowStatus::new(quota.per_day, day_used, day_start(now), DAY_SECS, now),
        }
    }

    /// The window that binds first, reported in `X-RateLimit-*`: the one with fewer requests
    /// left, the minute on a tie.
    pub fn binding(&self) -> &WindowStatus {
        if self.day.remaining < self.minute.remaining {
            &self.day
        } else {
            &self.minute
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-22T00:00:00Z.
    const MIDNIGHT: i64 = 1_795_305_600;

    fn quota(per_minute: u64, per_day: u64) -> Quota {
        Quota {
            per_minute,
            per_day,
        }
    }

    #[test]
    fn second_59_is_in_the_same_minute_and_second_60_starts_the_next() {
        let t = MIDNIGHT + 10 * 60;
        assert_eq!(minute_start(t), t);
        assert_eq!(minute_start(t + 59), t);
        assert_eq!(minute_start(t + 60), t + 60);
    }

    #[test]
    fn the_day_starts_at_utc_midnight() {
        assert_eq!(MIDNIGHT % DAY_SECS, 0);
        assert_eq!(day_start(MIDNIGHT + 86_399), MIDNIGHT);
        assert_eq!(day_start(MIDNIGHT + 86_400), MIDNIGHT + 86_400);
        assert_eq!(day_start(MIDNIGHT - 1), MIDNIGHT - 86_400);
    }

    #[test]
    fn times_before_1970_floor_to_the_earlier_window() {
        assert_eq!(minute_start(-1), -60);
        assert_eq!(day_start(-1), -86_400);
    }

    #[test]
    fn secs_until_is_at_least_one() {
        assert_eq!(secs_until(100, 40), 60);
        assert_eq!(secs_until(100, 99), 1);
        assert_eq!(secs_until(100, 100), 1);
        assert_eq!(secs_until(100, 500), 1);
    }

    #[test]
    fn a_counter_from_an_earlier_window_reads_as_zero_and_restarts() {
        let mut counter = Counter::default();
        assert_eq!(counter.add(60), 1);
        assert_eq!(counter.add(60), 2);
        assert_eq!(counter.get(60), 2);
        assert_eq!(counter.get(120), 0);
        assert_eq!(counter.current(120), None);
        assert_eq!(counter.add(120), 1);
        assert_eq!(counter.current(120), Some((120, 1)));
    }

    #[test]
    fn raising_a_counter_keeps_the_larger_count() {
        let mut counter = Counter::default();
        counter.add(0);
        counter.add(0);
        counter.raise_to(0, 1);
        assert_eq!(counter.get(0), 2);
        counter.raise_to(0, 5);
        assert_eq!(counter.get(0), 5);
        counter.raise_to(86_400, 3);
        assert_eq!(counter.get(86_400), 3);
    }

    #[test]
    fn the_status_reports_resets_at_the_end_of_each_window() {
        let now = MIDNIGHT + 3_600 + 18;
        let status = Status::at(quota(60, 1_000), 1, 2, now);
        assert_eq!(
            status.minute,
            WindowStatus {
                limit: 60,
                used: 1,
                remaining: 59,
                reset: MIDNIGHT + 3_660,
                reset_after: 42,
            }
        );
        assert_eq!(status.day.reset, MIDNIGHT + 86_400);
        assert_eq!(status.day.reset_after, 86_400 - 3_618);
        assert_eq!(status.day.remaining, 998);
    }

    #[test]
    fn remaining_never_goes_below_zero_when_used_exceeds_the_limit() {
        let status = Status::at(quota(60, 1_000), 300, 300, MIDNIGHT);
        assert_eq!(status.minute.remaining, 0);
        assert_eq!(status.day.remaining, 700);
    }

    #[test]
    fn binding_is_the_window_with_fewer_remaining() {
        let day_binds = Status::at(quota(60, 1_000), 5, 990, MIDNIGHT);
        assert_eq!(day_binds.binding(), &day_binds.day);
        let minute_binds = Status::at(quota(60, 1_000), 50, 50, MIDNIGHT);
        assert_eq!(minute_binds.binding(), &minute_binds.minute);
    }

    #[test]
    fn binding_is_the_minute_on_a_tie() {
        let tie = Status::at(quota(60, 1_000), 50, 990, MIDNIGHT);
        assert_eq!(tie.minute.remaining, tie.day.remaining);
        assert_eq!(tie.binding(), &tie.minute);
        let both_spent = Status::at(quota(60, 1_000), 60, 1_000, MIDNIGHT);
        assert_eq!(both_spent.binding(), &both_spent.minute);
    }
}
