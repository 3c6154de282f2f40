//! Log lines about a failure that repeats (the store unreachable, a full disk): the first is
//! written, then at most one each [`Repeats::EVERY`] while it goes on, saying how many were
//! left out, so an outage does not write twenty lines a second into the log.

use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// One kind of repeating failure.
#[derive(Default)]
pub struct Repeats {
    state: Mutex<Option<(Instant, u64)>>,
}

impl Repeats {
    /// The shortest time between two lines about the same failure.
    pub const EVERY: Duration = Duration::from_secs(30);

    pub const fn new() -> Self {
        Self {
            state: Mutex::new(None),
        }
    }

    /// Whether to write the line for the failure seen at `now`: `Some(left_out)` (how many
    /// were not written since the last line), or `None` to leave this one out.
    pub fn at(&self, now: Instant) -> Option<u64> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match &mut *state {
            Some((last, left_out)) if now.duration_since(*last) < Self::EVERY => {
                *left_out += 1;
                None
            }
            Some((last, left_out)) => {
                let had = *left_out;
                *last = now;
                *left_out = 0;
                Some(had)
            }
            None => {
                *state = Some((now, 0));
                Some(0)
            }
        }
    }

    /// [`Repeats::at`] now.
    pub fn now(&self) -> Option<u64> {
        self.at(Instant::now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeating_failure_is_written_once_then_once_each_interval_with_what_was_left_out() {
        let repeats = Repeats::new();
        let t0 = Instant::now();
        let written: Vec<Option<u64>> = (0..70)
            .map(|tenth| repeats.at(t0 + Duration::from_millis(tenth * 1000)))
            .filter(Option::is_some)
            .collect();
        assert_eq!(written, [Some(0), Some(29), Some(29)]);
    }
}
