//! The limiter: per-subject counts in sharded maps, and the decision for each request.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasher, RandomState};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::ban::{BanPolicy, BanState};
use super::clock::Clock;
use super::window::{day_start, minute_start, secs_until, Counter, Status};
use super::Quota;
use crate::contract::Code;

/// Number of shards; a power of two so that a shard is picked with a mask. 64 keeps the chance
/// that two busy subjects share a lock small on any machine a shop runs, for 4 KiB of maps.
const SHARDS: usize = 64;
/// Most subjects one shard remembers (so at most 64 Ki subjects in all). Keys are few; this
/// bounds the addresses of keyless callers, however many a caller can make up.
const MAX_PER_SHARD: usize = 1024;

/// Who is counted: an API key by id, or, for requests without a valid key, the client address.
#[derive(Clone, Copy, Hash, Eq, PartialEq, Debug)]
pub enum Subject {
    /// An API key, by its id.
    Key(i64),
    /// A client address, for requests with no valid key.
    Addr(IpAddr),
    /// A staff member, by id: all of the member's sign-in sessions together, so signing in
    /// again escapes neither a ban nor the quota.
    Staff(i64),
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Key(id) => write!(f, "key {id}"),
            Subject::Addr(addr) => write!(f, "address {addr}"),
            Subject::Staff(id) => write!(f, "staff member {id}"),
        }
    }
}

/// The answer to one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Serve it. The request has been counted; the status is the one after counting it.
    Allowed(Status),
    /// 429 `rate_limited`: a window is full. No quota was used; the refusal was counted
    /// towards a ban. The refusal that takes the count past [`BanPolicy::max_rejections`] is
    /// still answered with this variant and starts the ban ([`Limiter::banned_until`] shows it
    /// at once); the next request gets [`Decision::Banned`].
    Limited {
        /// Both windows as they are (unchanged by this request).
        status: Status,
        /// Whole seconds until the full window resets, at least 1; when both are full, until
        /// the later of the two (the day) resets.
        retry_after: u64,
    },
    /// 429 `temporarily_banned`. Nothing was counted.
    Banned {
        /// Both windows as they are.
        status: Status,
        /// Whole seconds left of the ban, at least 1.
        retry_after: u64,
        /// Unix seconds when the ban ends.
        until: i64,
    },
}

impl Decision {
    /// Whether the request may be served.
    pub fn is_allowed(&self) -> bool {
        matches!(self, Decision::Allowed(_))
    }

    /// Both windows, whatever the decision (for the rate-limit headers).
    pub fn status(&self) -> &Status {
        match self {
            Decision::Allowed(status)
            | Decision::Limited { status, .. }
            | Decision::Banned { status, .. } => status,
        }
    }

    /// The `Retry-After` seconds of a refusal.
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Decision::Allowed(_) => None,
            Decision::Limited { retry_after, .. } | Decision::Banned { retry_after, .. } => {
                Some(*retry_after)
            }
        }
    }

    /// The contract's error code of a refusal: `rate_limited` or `temporarily_banned`.
    pub fn error_code(&self) -> Option<Code> {
        match self {
            Decision::Allowed(_) => None,
            Decision::Limited { .. } => Some(Code::RateLimited),
            Decision::Banned { .. } => Some(Code::TemporarilyBanned),
        }
    }
}

/// What is remembered about one subject.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    minute: Counter,
    day: Counter,
    ban: BanState,
}

/// The two windows a subject's requests are counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    Minute,
    Day,
}

impl Span {
    /// When the span holding `now` started (Unix seconds).
    pub fn start(self, now: i64) -> i64 {
        match self {
            Self::Minute => minute_start(now),
            Self::Day => day_start(now),
        }
    }
}

impl Entry {
    fn counter(&self, span: Span) -> &Counter {
        match span {
            Span::Minute => &self.minute,
            Span::Day => &self.day,
        }
    }

    fn counter_mut(&mut self, span: Span) -> &mut Counter {
        match span {
            Span::Minute => &mut self.minute,
            Span::Day => &mut self.day,
        }
    }

    fn status(&self, quota: Quota, now: i64) -> Status {
        Status::at(
            quota,
            self.minute.get(minute_start(now)),
            self.day.get(day_start(now)),
            now,
        )
    }

    fn is_idle(&self, policy: &BanPolicy, now: i64) -> bool {
        self.minute.current(minute_start(now)).is_none()
            && self.day.current(day_start(now)).is_none()
            && self.ban.is_idle(policy, now)
    }
}

type Map = HashMap<Subject, Entry>;

/// One shard, on a cache line of its own so that neighbouring locks do not share one.
#[repr(align(64))]
#[derive(Default)]
struct Shard(Mutex<Map>);

/// Counts requests per [`Subject`] in fixed UTC minute and day windows and bans subjects that
/// keep knocking after being refused. Cheap to share: put it in an `Arc`.
pub struct Limiter {
    policy: BanPolicy,
    clock: Arc<dyn Clock>,
    /// Secret seed of the shard choice, so that clients cannot aim their addresses at one shard.
    seed: u64,
    shards: Box<[Shard]>,
    /// Bans started here and not yet handed to [`Limiter::take_started_bans`] (to share
    /// them with the other processes serving the store).
    started: Mutex<Vec<(Subject, i64)>>,
}

impl fmt::Debug for Limiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Limiter")
            .field("policy", &self.policy)
            .field("shards", &self.shards.len())
            .finish_non_exhaustive()
    }
}

impl Limiter {
    /// A limiter with no subjects yet, banning by `policy` and reading the time from `clock`.
    pub fn new(policy: BanPolicy, clock: Arc<dyn Clock>) -> Self {
        Limiter {
            policy,
            clock,
            seed: RandomState::new().hash_one(0x5eed_u64),
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
            started: Mutex::default(),
        }
    }

    /// The ban policy in force.
    pub fn policy(&self) -> BanPolicy {
        self.policy
    }

    /// Decides on one request by `subject` under `quota`, counting it if it is allowed and
    /// counting a refusal (which may start a ban) if it is limited.
    pub fn check(&self, subject: &Subject, quota: Quota) -> Decision {
        let mut map = self.shard(subject);
        // Read the time under the lock, so that the readings one subject's windows see never go
        // backwards: a request read at second 59 but counted after one read at second 60 would
        // otherwise move the minute back and lose the newer count.
        let now = self.clock.now();
        let (minute, day) = (minute_start(now), day_start(now));
        if map.len() >= MAX_PER_SHARD && !map.contains_key(subject) {
            self.make_room(&mut map, now);
        }
        let entry = map.entry(*subject).or_default();

        if let Some(until) = entry.ban.banned_until(now) {
            return Decision::Banned {
                status: entry.status(quota, now),
                retry_after: secs_until(until, now),
                until,
            };
        }

        let minute_full = entry.minute.get(minute) >= quota.per_minute;
        let day_full = entry.day.get(day) >= quota.per_day;
        if !minute_full && !day_full {
            entry.minute.add(minute);
            entry.day.add(day);
            return Decision::Allowed(entry.status(quota, now));
        }

        let status = entry.status(quota, now);
        // Both full: the request cannot pass until both have room, so point at the later reset.
        let reset = match (minute_full, day_full) {
            (true, false) => status.minute.reset,
            (false, true) => status.day.reset,
            _ => status.minute.reset.max(status.day.reset),
        };
        // The refusal that starts a ban is still answered `rate_limited` (it is the one that
        // takes the count past the limit); the ban shows from the next request on.
        if let Some(until) = entry.ban.record_rejection(&self.policy, now) {
            self.note_started(*subject, until);
        }
        Decision::Limited {
            status,
            retry_after: secs_until(reset, now),
        }
    }

    /// Counts a refusal of `subject` that was not a rate limit (a wrong pairing code) toward
    /// its ban, as a 429 would count.
    pub fn record_refusal(&self, subject: &Subject) {
        let mut map = self.shard(subject);
        let now = self.clock.now();
        if map.len() >= MAX_PER_SHARD && !map.contains_key(subject) {
            self.make_room(&mut map, now);
        }
        let started = map
            .entry(*subject)
            .or_default()
            .ban
            .record_rejection(&self.policy, now);
        if let Some(until) = started {
            self.note_started(*subject, until);
        }
    }

    fn note_started(&self, subject: Subject, until: i64) {
        self.started
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((subject, until));
    }

    /// The bans started here since the last call, with when each ends.
    pub fn take_started_bans(&self) -> Vec<(Subject, i64)> {
        std::mem::take(&mut *self.started.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Whether a ban of `subject` started here is waiting for [`Limiter::take_started_bans`].
    pub fn ban_pending(&self, subject: &Subject) -> bool {
        self.started
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .any(|(s, _)| s == subject)
    }

    /// Every subject banned now, with when its ban ends.
    pub fn bans(&self) -> Vec<(Subject, i64)> {
        let now = self.clock.now();
        let mut bans = Vec::new();
        for shard in &*self.shards {
            let map = lock(shard);
            bans.extend(
                map.iter()
                    .filter_map(|(s, e)| e.ban.banned_until(now).map(|until| (*s, until))),
            );
        }
        bans
    }

    /// Bans `subject` until `until` (a ban another process started), unless it is banned
    /// longer already.
    pub fn impose_ban(&self, subject: Subject, until: i64) {
        let mut map = self.shard(&subject);
        let now = self.clock.now();
        if map.len() >= MAX_PER_SHARD && !map.contains_key(&subject) {
            self.make_room(&mut map, now);
        }
        map.entry(subject).or_default().ban.ban_until(until);
    }

    /// Both windows of `subject` under `quota` right now, counting nothing (for listings).
    pub fn peek(&self, subject: &Subject, quota: Quota) -> Status {
        let map = self.shard(subject);
        let now = self.clock.now();
        match map.get(subject) {
            Some(entry) => entry.status(quota, now),
            None => Status::at(quota, 0, 0, now),
        }
    }

    /// When the ban on `subject` ends, if it is banned now.
    pub fn banned_until(&self, subject: &Subject) -> Option<i64> {
        let map = self.shard(subject);
        let now = self.clock.now();
        map.get(subject)
            .and_then(|entry| entry.ban.banned_until(now))
    }

    /// Ends any ban on `subject` and clears its count of refusals; its quota use is kept.
    pub fn lift_ban(&self, subject: &Subject) {
        let mut map = self.shard(subject);
        if let Some(entry) = map.get_mut(subject) {
            entry.ban.lift();
        }
    }

    /// The current `span`'s request count of every subject that made a request in it, with
    /// the span's start, for saving and for sharing with the other processes on the store.
    /// Locks one shard at a time, so it is not one atomic snapshot.
    pub fn counts(&self, span: Span) -> Vec<(Subject, i64, u64)> {
        let current = span.start(self.clock.now());
        let mut counts = Vec::new();
        for shard in &*self.shards {
            let map = lock(shard);
            counts.extend(map.iter().filter_map(|(subject, entry)| {
                let (start, count) = entry.counter(span).current(current)?;
                Some((*subject, start, count))
            }));
        }
        counts
    }

    /// Adds `extra` requests that other processes on the same store served for `subject` in
    /// the `span` starting at `start`, so its quota is counted across processes. Ignored
    /// unless that span is the current one.
    pub fn add_count(&self, span: Span, subject: Subject, start: i64, extra: u64) {
        let mut map = self.shard(&subject);
        if start != span.start(self.clock.now()) || extra == 0 {
            return;
        }
        let counter = map.entry(subject).or_default().counter_mut(span);
        let current = counter.get(start);
        counter.raise_to(start, current.saturating_add(extra));
    }

    /// Restores a persisted day count (from [`Limiter::counts`] of [`Span::Day`]); call it at startup,
    /// before serving. Ignored unless `day_start_secs` is the start of today. The count becomes
    /// the larger of the one held and `count`, so restoring twice is harmless.
    pub fn restore_day_count(&self, subject: Subject, day_start_secs: i64, count: u64) {
        let mut map = self.shard(&subject);
        if day_start_secs != day_start(self.clock.now()) || count == 0 {
            return;
        }
        map.entry(subject)
            .or_default()
            .day
            .raise_to(day_start_secs, count);
    }

    /// Drops subjects with nothing left to remember: no request this minute or today, no
    /// refusal in the current refusal window and no ban. Locks one shard at a time and gives
    /// back memory after a burst; cheap enough to call every minute.
    pub fn forget_idle(&self) {
        for shard in &*self.shards {
            let mut map = lock(shard);
            // Read under each lock: a reading older than a count it looks at would see that
            // count as stale and drop it.
            let now = self.clock.now();
            map.retain(|_, entry| !entry.is_idle(&self.policy, now));
            if map.capacity() > 64 && map.len() < map.capacity() / 4 {
                map.shrink_to_fit();
            }
        }
    }

    /// Frees a place in a full shard: first the subjects with nothing to remember, then (a
    /// flood of made-up addresses) the address that made the fewest requests today and is
    /// not banned.
    fn make_room(&self, map: &mut Map, now: i64) {
        map.retain(|_, entry| !entry.is_idle(&self.policy, now));
        if map.len() < MAX_PER_SHARD {
            return;
        }
        let today = day_start(now);
        let victim = map
            .iter()
            .filter(|(subject, entry)| {
                matches!(subject, Subject::Addr(_)) && entry.ban.banned_until(now).is_none()
            })
            .min_by_key(|(_, entry)| entry.day.current(today).map_or(0, |(_, count)| count))
            .map(|(subject, _)| *subject);
        if let Some(victim) = victim {
            map.remove(&victim);
        }
    }

    /// How many subjects are remembered (for metrics and tests).
    pub fn tracked(&self) -> usize {
        self.shards.iter().map(|shard| lock(shard).len()).sum()
    }

    fn shard(&self, subject: &Subject) -> MutexGuard<'_, Map> {
        lock(&self.shards[self.shard_index(subject)])
    }

    /// Picks a shard with a seeded mix of the subject: a few multiplications instead of a second
    /// SipHash (the maps inside keep SipHash, which is what guards them against collisions).
    fn shard_index(&self, subject: &Subject) -> usize {
        let folded = match subject {
            Subject::Key(id) => *id as u64,
            Subject::Staff(id) => (*id as u64).rotate_left(17) ^ 1 << 33,
            Subject::Addr(IpAddr::V4(addr)) => u64::from(u32::from(*addr)) | 1 << 32,
            Subject::Addr(IpAddr::V6(addr)) => {
                let bits = u128::from(*addr);
                (bits as u64) ^ ((bits >> 64) as u64).rotate_left(29)
            }
        };
        // SplitMix64's finaliser: every input bit moves the top bits the index is taken from.
        let mut z = folded ^ self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> (64 - SHARDS.trailing_zeros())) as usize
    }
}

/// Locks a shard. A panic while a shard was locked cannot leave an entry half-written (every
/// update is a few plain stores), so a poisoned lock is taken over rather than spread.
fn lock(shard: &Shard) -> MutexGuard<'_, Map> {
    shard.0.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::super::TestClock;
    use super::*;

    #[test]
    fn a_flood_of_made_up_addresses_is_remembered_only_up_to_a_bound() {
        let limiter = Limiter::new(
            BanPolicy::default(),
            Arc::new(TestClock::new(1_795_305_600)),
        );
        let quota = Quota {
            per_minute: 60,
            per_day: 1000,
        };
        for i in 0..(SHARDS * MAX_PER_SHARD * 2) as u128 {
            let addr = IpAddr::from(std::net::Ipv6Addr::from(
                (0x2001_0db8_u128 << 96) | (i << 64),
            ));
            assert!(limiter.check(&Subject::Addr(addr), quota).is_allowed());
        }
        assert!(limiter.tracked() <= SHARDS * MAX_PER_SHARD);
        assert!(limiter.check(&Subject::Key(1), quota).is_allowed());
    }

    #[test]
    fn a_shard_poisoned_by_a_panic_keeps_working() {
        let limiter = Arc::new(Limiter::new(
            BanPolicy::default(),
            Arc::new(TestClock::new(1_795_305_600)),
        ));
        let subject = Subject::Key(1);
        let quota = Quota {
            per_minute: 2,
            per_day: 10,
        };
        assert!(limiter.check(&subject, quota).is_allowed());
        let poisoner = Arc::clone(&limiter);
        let panicked = std::thread::spawn(move || {
            let _guard = poisoner.shard(&subject);
            panic!("poison the shard");
        })
        .join();
        assert!(panicked.is_err());
        assert!(limiter.check(&subject, quota).is_allowed());
        assert!(!limiter.check(&subject, quota).is_allowed());
        assert_eq!(limiter.peek(&subject, quota).minute.used, 2);
    }

    #[test]
    fn subjects_spread_over_many_shards() {
        let limiter = Limiter::new(BanPolicy::default(), Arc::new(TestClock::new(0)));
        let mut per_shard = [0_usize; SHARDS];
        for id in 0..6_400 {
            per_shard[limiter.shard_index(&Subject::Key(id))] += 1;
        }
        let v4 = (0..=255_u8).map(|last| IpAddr::from([192, 0, 2, last]));
        let v6 = (0..=255_u16).map(|last| IpAddr::from([0x2001, 0xdb8, 0, 0, 0, 0, 0, last]));
        for addr in v4.chain(v6) {
            per_shard[limiter.shard_index(&Subject::Addr(addr))] += 1;
        }
        // 6,912 subjects over 64 shards: 108 each on average.
        let (least, most) = (per_shard.iter().min(), per_shard.iter().max());
        assert!(
            least >= Some(&50) && most <= Some(&180),
            "{least:?}..{most:?}"
        );
    }

    #[test]
    fn forget_idle_gives_memory_back_after_a_burst() {
        let clock = Arc::new(TestClock::new(1_795_305_600));
        let limiter = Limiter::new(BanPolicy::default(), clock.clone());
        let quota = Quota {
            per_minute: 60,
            per_day: 1_000,
        };
        for id in 0..20_000 {
            limiter.check(&Subject::Key(id), quota);
        }
        let capacity = |limiter: &Limiter| -> usize {
            limiter
                .shards
                .iter()
                .map(|shard| lock(shard).capacity())
                .sum()
        };
        assert!(capacity(&limiter) >= 20_000);
        clock.advance(86_400);
        limiter.forget_idle();
        assert_eq!(limiter.tracked(), 0);
        assert!(capacity(&limiter) < 1_000, "{}", capacity(&limiter));
    }

    #[test]
    fn subjects_print_for_logs() {
        assert_eq!(Subject::Key(7).to_string(), "key 7");
        let addr: IpAddr = "192.0.2.1".parse().expect("address");
        assert_eq!(Subject::Addr(addr).to_string(), "address 192.0.2.1");
    }
}
