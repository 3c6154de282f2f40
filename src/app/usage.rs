//! Rate limits and their saved usage: the limiter, seeded at start from the day counts in
//! the store, and saving what it counted as additions (the requests served since the last
//! save), so that two programs on one store add up instead of overwriting each other.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::auth::Keyring;
use crate::limits::{BanPolicy, Clock, Limiter, Span, Subject};
use crate::store::usage::UsageDelta;
use crate::store::{Store, StoreError};

/// The limiter and what of its counts is already in the store.
pub struct Usage {
    limiter: Limiter,
    clock: Arc<dyn Clock>,
    saved: Mutex<Saved>,
    /// How many bans were lifted here: a [`Usage::sync_bans`] that read the store's list
    /// before a lift finished must not impose that list afterwards.
    lifts: Mutex<u64>,
}

/// What is already in the store: per subject, the day and the count it accounts for, and
/// per key, the last use written.
#[derive(Default)]
struct Saved {
    counts: HashMap<String, (i64, u64)>,
    /// The same for the current minute's counts.
    minutes: HashMap<String, (i64, u64)>,
    uses: HashMap<i64, i64>,
}

impl Saved {
    /// What is in the store of each subject's count of `span`.
    fn of(&mut self, span: Span) -> &mut HashMap<String, (i64, u64)> {
        match span {
            Span::Day => &mut self.counts,
            Span::Minute => &mut self.minutes,
        }
    }
}

impl Usage {
    /// A limiter whose day counts start from what the store saved for today.
    pub fn load(store: &Store, ban: BanPolicy, clock: Arc<dyn Clock>) -> Result<Self, StoreError> {
        let limiter = Limiter::new(ban, clock.clone());
        let today = crate::limits::day_start(clock.now());
        let mut saved = Saved::default();
        for (subject, day_start, count) in store.usage().load(today).wait()? {
            if let Some(parsed) = parse_subject(&subject) {
                limiter.restore_day_count(parsed, day_start, count);
                saved.counts.insert(subject, (day_start, count));
            }
        }
        Ok(Self {
            limiter,
            clock,
            saved: Mutex::new(saved),
            lifts: Mutex::new(0),
        })
    }

    pub fn limiter(&self) -> &Limiter {
        &self.limiter
    }

    /// Unix seconds by the app's clock.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Adds the requests counted since the last save, and the keys' last uses, to the
    /// store (an idle app writes nothing), then counts what other processes added: the
    /// day's counts and this minute's, so both quotas hold across processes.
    pub fn save(&self, store: &Store, keyring: &Keyring) -> Result<(), StoreError> {
        let mut saved = self.saved.lock().unwrap_or_else(|e| e.into_inner());
        let saved = &mut *saved;
        let counted = SPANS.map(|span| counted(&self.limiter, span));
        let deltas: Vec<UsageDelta> = SPANS
            .iter()
            .zip(&counted)
            .flat_map(|(&span, counted)| deltas(saved.of(span), counted))
            .collect();
        let used: Vec<(i64, i64)> = keyring
            .last_uses()
            .into_iter()
            .filter(|(id, at)| saved.uses.get(id) != Some(at))
            .collect();
        let uses: Vec<(i64, String)> = used
            .iter()
            .filter_map(|&(id, at)| {
                chrono::DateTime::from_timestamp(at, 0)
                    .map(|t| (id, crate::domain::time::format(t)))
            })
            .collect();
        if !deltas.is_empty() || !uses.is_empty() {
            store.usage().save(deltas, uses).wait()?;
        }
        saved.uses.extend(used);
        let now = self.now();
        for (span, counted) in SPANS.into_iter().zip(counted) {
            let start = span.start(now);
            let saved = saved.of(span);
            // Only the current span's counts are ever saved again; forget the rest so this
            // never grows.
            remember(saved, counted, start);
            // What other processes on the same store (several servers on one PostgreSQL
            // database) added since: counted here too, and marked as already in the store.
            for (subject, at, total) in store.usage().load(start).wait()? {
                let Some(parsed) = parse_saved(span, &subject) else {
                    continue;
                };
                if let Some(extra) = news(saved, &subject, at, total) {
                    self.limiter.add_count(span, parsed, at, extra);
                }
            }
        }
        Ok(())
    }

    /// Shares bans with the other processes serving the store: writes the bans started here
    /// since the last call, then takes the store's list as the truth (bans started elsewhere
    /// are imposed here, and bans lifted elsewhere are lifted here).
    pub fn sync_bans(&self, store: &Store) -> Result<(), StoreError> {
        let now = self.now();
        let lifts_before = *self.lifts.lock().unwrap_or_else(|e| e.into_inner());
        let started: Vec<(String, i64)> = self
            .limiter
            .take_started_bans()
            .into_iter()
            .map(|(subject, until)| (subject_key(&subject), until))
            .collect();
        if !started.is_empty() {
            store.bans().start(started, now).wait()?;
        }
        let shared: HashMap<Subject, i64> = store
            .bans()
            .active(now)
            .wait()?
            .into_iter()
            .filter_map(|(subject, until)| parse_subject(&subject).map(|s| (s, until)))
            .collect();
        let lifts = self.lifts.lock().unwrap_or_else(|e| e.into_inner());
        if *lifts != lifts_before {
            // A ban was lifted here while the list was read: the list may still hold it.
            // The next call reads the store again.
            return Ok(());
        }
        // A ban started here after the write above is not in the list yet: it stays.
        for (subject, _) in self.limiter.bans() {
            if !shared.contains_key(&subject) && !self.limiter.ban_pending(&subject) {
                self.limiter.lift_ban(&subject);
            }
        }
        for (subject, until) in shared {
            self.limiter.impose_ban(subject, until);
        }
        Ok(())
    }

    /// Lifts the ban on `subject` here and for every process serving the store.
    pub async fn lift_ban(&self, store: &Store, subject: Subject) -> Result<(), StoreError> {
        store.bans().lift(subject_key(&subject)).await?;
        let mut lifts = self.lifts.lock().unwrap_or_else(|e| e.into_inner());
        *lifts += 1;
        self.limiter.lift_ban(&subject);
        Ok(())
    }

    /// Forgets subjects that have been idle long enough not to matter.
    pub fn forget_idle(&self) {
        self.limiter.forget_idle();
    }
}

/// How a rate-limit subject is saved.
pub fn subject_key(subject: &Subject) -> String {
    match subject {
        Subject::Key(id) => format!("key:{id}"),
        Subject::Addr(addr) => format!("addr:{addr}"),
        Subject::Staff(id) => format!("staff:{id}"),
    }
}

/// The spans whose counts are saved and shared.
const SPANS: [Span; 2] = [Span::Day, Span::Minute];

/// How a subject's count of the current minute is saved (beside its day count, saved as
/// [`subject_key`]).
const MINUTE: &str = "minute:";

/// How `subject`'s count of `span` is saved.
fn saved_key(span: Span, subject: &Subject) -> String {
    match span {
        Span::Day => subject_key(subject),
        Span::Minute => format!("{MINUTE}{}", subject_key(subject)),
    }
}

/// The subject of a saved count of `span` (`None` for another span's, or one unreadable).
fn parse_saved(span: Span, raw: &str) -> Option<Subject> {
    match span {
        Span::Day => parse_subject(raw),
        Span::Minute => raw.strip_prefix(MINUTE).and_then(parse_subject),
    }
}

/// The limiter's counts of `span` as saved: `(saved subject, span start, count)`.
fn counted(limiter: &Limiter, span: Span) -> Vec<(String, i64, u64)> {
    limiter
        .counts(span)
        .into_iter()
        .map(|(subject, start, count)| (saved_key(span, &subject), start, count))
        .collect()
}

/// What each count holds beyond what is already in the store.
fn deltas(saved: &HashMap<String, (i64, u64)>, counted: &[(String, i64, u64)]) -> Vec<UsageDelta> {
    counted
        .iter()
        .filter_map(|(subject, start, count)| {
            let already = match saved.get(subject) {
                Some(&(saved_start, saved_count)) if saved_start == *start => saved_count,
                _ => 0,
            };
            (*count > already).then(|| UsageDelta {
                subject: subject.clone(),
                day_start: *start,
                served: count - already,
            })
        })
        .collect()
}

/// Marks `counted` as in the store, keeping only the window starting at `current`.
fn remember(
    saved: &mut HashMap<String, (i64, u64)>,
    counted: Vec<(String, i64, u64)>,
    current: i64,
) {
    saved.retain(|_, (start, _)| *start == current);
    for (subject, start, count) in counted {
        let entry = saved.entry(subject).or_insert((start, 0));
        if entry.0 != start || entry.1 < count {
            *entry = (start, count);
        }
    }
}

/// How much the store's `total` for `subject` holds beyond what this process knows of, if
/// anything; it is then known.
fn news(
    saved: &mut HashMap<String, (i64, u64)>,
    subject: &str,
    start: i64,
    total: u64,
) -> Option<u64> {
    let known = match saved.get(subject) {
        Some(&(saved_start, count)) if saved_start == start => count,
        _ => 0,
    };
    (total > known).then(|| {
        saved.insert(subject.to_owned(), (start, total));
        total - known
    })
}

fn parse_subject(raw: &str) -> Option<Subject> {
    match raw.split_once(':')? {
        ("key", id) => id.parse().ok().map(Subject::Key),
        ("addr", addr) => addr.parse::<IpAddr>().ok().map(Subject::Addr),
        ("staff", id) => id.parse().ok().map(Subject::Staff),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::Keyring;
    use crate::limits::{Quota, TestClock};

    /// Two programs serving one store file: each its own store and usage, on one clock.
    struct TwoPrograms {
        _dir: tempfile::TempDir,
        a: Store,
        b: Store,
        ua: Usage,
        ub: Usage,
        clock: Arc<TestClock>,
    }

    fn two_programs(policy: BanPolicy) -> TwoPrograms {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.sqlite");
        let (a, b) = (Store::open(&path).unwrap(), Store::open(&path).unwrap());
        let clock = Arc::new(TestClock::new(1_800_000_000));
        let ua = Usage::load(&a, policy, clock.clone()).unwrap();
        let ub = Usage::load(&b, policy, clock.clone()).unwrap();
        TwoPrograms {
            _dir: dir,
            a,
            b,
            ua,
            ub,
            clock,
        }
    }

    #[test]
    fn two_programs_saving_usage_of_one_store_add_their_counts_up() {
        let TwoPrograms {
            _dir,
            a,
            b,
            ua,
            ub,
            clock,
        } = two_programs(BanPolicy::default());
        let quota = Quota {
            per_minute: 1000,
            per_day: 1000,
        };
        let subject = Subject::Key(7);
        let keyring = Keyring::default();
        for _ in 0..3 {
            ua.limiter().check(&subject, quota);
        }
        ua.save(&a, &keyring).unwrap();
        for _ in 0..5 {
            ub.limiter().check(&subject, quota);
        }
        ub.save(&b, &keyring).unwrap();
        // Saving again with nothing new adds nothing.
        ua.save(&a, &keyring).unwrap();
        for _ in 0..2 {
            ua.limiter().check(&subject, quota);
        }
        ua.save(&a, &keyring).unwrap();
        let today = crate::limits::day_start(clock.now());
        let saved = a.usage().load(today).wait().unwrap();
        assert_eq!(saved, vec![("key:7".to_owned(), today, 10)]);
        // A program started now begins from the sum.
        let restarted = Usage::load(&b, BanPolicy::default(), clock).unwrap();
        assert_eq!(restarted.limiter().peek(&subject, quota).day.used, 10);
        a.close();
        b.close();
    }

    #[test]
    fn a_ban_started_by_one_program_reaches_the_other_and_lifting_it_lifts_it_for_both() {
        let policy = BanPolicy::default();
        let TwoPrograms {
            _dir, a, b, ua, ub, ..
        } = two_programs(policy);
        let subject = Subject::Addr("192.0.2.7".parse().unwrap());
        for _ in 0..=policy.max_rejections {
            ua.limiter().record_refusal(&subject);
        }
        let until = ua.limiter().banned_until(&subject).expect("banned on a");
        assert_eq!(ub.limiter().banned_until(&subject), None);
        ua.sync_bans(&a).unwrap();
        ub.sync_bans(&b).unwrap();
        assert_eq!(ub.limiter().banned_until(&subject), Some(until), "shared");
        // A second look changes nothing, on either side.
        ua.sync_bans(&a).unwrap();
        assert_eq!(ua.limiter().banned_until(&subject), Some(until));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(ub.lift_ban(&b, subject)).unwrap();
        assert_eq!(ub.limiter().banned_until(&subject), None);
        ua.sync_bans(&a).unwrap();
        assert_eq!(ua.limiter().banned_until(&subject), None, "lifted for both");
        a.close();
        b.close();
    }

    #[test]
    fn two_programs_share_the_minute_count_so_the_per_minute_quota_holds_across_both() {
        let TwoPrograms {
            _dir, a, b, ua, ub, ..
        } = two_programs(BanPolicy::default());
        let quota = Quota {
            per_minute: 60,
            per_day: 1000,
        };
        let subject = Subject::Key(9);
        let keyring = Keyring::default();
        for _ in 0..40 {
            assert!(ua.limiter().check(&subject, quota).is_allowed());
        }
        ua.save(&a, &keyring).unwrap();
        ub.save(&b, &keyring).unwrap();
        let allowed = (0..40)
            .filter(|_| ub.limiter().check(&subject, quota).is_allowed())
            .count();
        assert_eq!(allowed, 20, "b knows of a's 40");
        ub.save(&b, &keyring).unwrap();
        ua.save(&a, &keyring).unwrap();
        assert_eq!(ua.limiter().peek(&subject, quota).minute.used, 60);
        assert!(!ua.limiter().check(&subject, quota).is_allowed());
        a.close();
        b.close();
    }
}
