//! The time source. Everything in `limits` reads the time through [`Clock`] so that tests can
//! walk across minute and day boundaries without sleeping.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A source of the current time in whole Unix seconds (UTC).
pub trait Clock: Send + Sync {
    /// The current time in Unix seconds, UTC.
    fn now(&self) -> i64;
}

/// The operating system's wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        match SystemTime::now().duration_since(UNIX_EPOCH) {
            Ok(since) => i64::try_from(since.as_secs()).unwrap_or(i64::MAX),
            // A clock set before 1970: report it as it is rather than failing.
            Err(before) => i64::try_from(before.duration().as_secs()).map_or(i64::MIN, |s| -s),
        }
    }
}

/// A clock that only moves when told to; share it as `Arc<TestClock>` between the test and
/// the [`Limiter`](super::Limiter) under test.
#[derive(Debug, Default)]
pub struct TestClock(AtomicI64);

impl TestClock {
    /// A clock reading `now` (Unix seconds).
    pub fn new(now: i64) -> Self {
        Self(AtomicI64::new(now))
    }

    /// Sets the time to `now`.
    pub fn set(&self, now: i64) {
        self.0.store(now, Ordering::SeqCst);
    }

    /// Moves the time by `secs` (negative moves it back) and returns the new time.
    pub fn advance(&self, secs: i64) -> i64 {
        self.0.fetch_add(secs, Ordering::SeqCst) + secs
    }
}

impl Clock for TestClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn the_test_clock_can_be_set_and_advanced_through_a_shared_handle() {
        let clock = Arc::new(TestClock::new(100));
        let shared: Arc<dyn Clock> = clock.clone();
        assert_eq!(shared.now(), 100);
        assert_eq!(clock.advance(59), 159);
        assert_eq!(shared.now(), 159);
        clock.set(7);
        assert_eq!(shared.now(), 7);
    }

    #[test]
    fn the_system_clock_reads_a_plausible_unix_time() {
        let now = SystemClock.now();
        // After 2024-01-01 and before 2100-01-01.
        assert!(now > 1_704_067_200 && now < 4_102_444_800, "{now}");
    }
}
