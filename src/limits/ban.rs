//! Temporary bans: a subject refused too often in one window is shut out for a while.

use super::window::{window_start, Counter};

/// When a subject is banned and for how long. The defaults are the contract's: more than 30
/// refusals in one minute bans for 15 minutes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BanPolicy {
    /// Refusals allowed in one window; the next one starts a ban.
    pub max_rejections: u32,
    /// Length of the fixed window refusals are counted in, in seconds (0 is read as 1).
    pub window_secs: u64,
    /// Length of a ban in seconds.
    pub ban_secs: u64,
}

impl Default for BanPolicy {
    fn default() -> Self {
        let defaults = crate::contract::DEFAULTS;
        BanPolicy {
            max_rejections: defaults.ban_after,
            window_secs: defaults.ban_window_secs,
            ban_secs: defaults.ban_secs,
        }
    }
}

impl BanPolicy {
    fn window_len(&self) -> i64 {
        i64::try_from(self.window_secs).unwrap_or(i64::MAX).max(1)
    }

    fn ban_len(&self) -> i64 {
        i64::try_from(self.ban_secs).unwrap_or(i64::MAX)
    }
}

/// One subject's refusals and ban.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BanState {
    rejections: Counter,
    /// Unix seconds when the last ban ends; in the past (or 0) when there is none.
    until: i64,
}

impl BanState {
    /// When the ban in force at `now` ends, if there is one.
    pub(crate) fn banned_until(&self, now: i64) -> Option<i64> {
        (self.until > now).then_some(self.until)
    }

    /// Counts one refusal at `now`. Returns when the ban ends if this refusal started one; the
    /// refusal count then starts again from zero, so a subject leaving a ban is not banned
    /// again by its first refusal.
    pub(crate) fn record_rejection(&mut self, policy: &BanPolicy, now: i64) -> Option<i64> {
        let count = self.rejections.add(window_start(now, policy.window_len()));
        if count <= u64::from(policy.max_rejections) {
            return None;
        }
        self.rejections = Counter::default();
        self.until = now.saturating_add(policy.ban_len());
        Some(self.until)
    }

    /// Banned until `until` at least (a ban started elsewhere).
    pub(crate) fn ban_until(&mut self, until: i64) {
        self.until = self.until.max(until);
    }

    /// Ends any ban and forgets the refusals.
    pub(crate) fn lift(&mut self) {
        *self = BanState::default();
    }

    /// Whether there is nothing to remember at `now`: no ban and no refusal in this window.
    pub(crate) fn is_idle(&self, policy: &BanPolicy, now: i64) -> bool {
        self.banned_until(now).is_none()
            && self
                .rejections
                .current(window_start(now, policy.window_len()))
                .is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: i64 = 1_795_305_600;

    #[test]
    fn the_default_policy_is_the_contracts() {
        let policy = BanPolicy::default();
        assert_eq!(
            (policy.max_rejections, policy.window_secs, policy.ban_secs),
            (30, 60, 900)
        );
    }

    #[test]
    fn thirty_rejections_do_not_ban_and_the_thirty_first_does() {
        let policy = BanPolicy::default();
        let mut state = BanState::default();
        for i in 0..30 {
            assert_eq!(
                state.record_rejection(&policy, T0 + i),
                None,
                "refusal {}",
                i + 1
            );
        }
        assert_eq!(state.banned_until(T0 + 30), None);
        assert_eq!(state.record_rejection(&policy, T0 + 30), Some(T0 + 930));
        assert_eq!(state.banned_until(T0 + 30), Some(T0 + 930));
    }

    #[test]
    fn rejections_in_an_earlier_window_are_forgotten() {
        let policy = BanPolicy::default();
        let mut state = BanState::default();
        for _ in 0..30 {
            assert_eq!(state.record_rejection(&policy, T0 + 59), None);
        }
        assert!(!state.is_idle(&policy, T0 + 59));
        assert!(state.is_idle(&policy, T0 + 60));
        assert_eq!(state.record_rejection(&policy, T0 + 60), None);
    }

    #[test]
    fn a_ban_expires_by_itself() {
        let policy = BanPolicy {
            max_rejections: 0,
            ..BanPolicy::default()
        };
        let mut state = BanState::default();
        assert_eq!(state.record_rejection(&policy, T0), Some(T0 + 900));
        assert_eq!(state.banned_until(T0 + 899), Some(T0 + 900));
        assert_eq!(state.banned_until(T0 + 900), None);
        assert!(state.is_idle(&policy, T0 + 900));
    }

    #[test]
    fn lifting_clears_the_ban_and_the_rejections() {
        let policy = BanPolicy {
            max_rejections: 2,
            ..BanPolicy::default()
        };
        let mut state = BanState::default();
        state.record_rejection(&policy, T0);
        state.record_rejection(&policy, T0);
        state.lift();
        assert!(state.is_idle(&policy, T0));
        // Two more fit again before the third bans.
        assert_eq!(state.record_rejection(&policy, T0), None);
        assert_eq!(state.record_rejection(&policy, T0), None);
        assert!(state.record_rejection(&policy, T0).is_some());
        state.lift();
        assert_eq!(state.banned_until(T0), None);
    }

    #[test]
    fn a_zero_window_is_read_as_one_second() {
        let policy = BanPolicy {
            max_rejections: 1,
            window_secs: 0,
            ban_secs: 10,
        };
        let mut state = BanState::default();
        assert_eq!(state.record_rejection(&policy, T0), None);
        assert_eq!(state.record_rejection(&policy, T0 + 1), None);
        assert_eq!(state.record_rejection(&policy, T0 + 1), Some(T0 + 11));
    }
}
