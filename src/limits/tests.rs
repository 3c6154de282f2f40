//! Behaviour of the [`Limiter`] as the `api` layer sees it, walked through with a [`TestClock`].

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

use super::*;
use crate::contract::Code;

/// 2026-11-22T00:00:00Z, a UTC midnight.
const MIDNIGHT: i64 = 1_795_305_600;
const FREE: Quota = Quota {
    per_minute: 60,
    per_day: 1_000,
};
const KEY: Subject = Subject::Key(1);

fn limiter_at(now: i64) -> (Limiter, Arc<TestClock>) {
    let clock = Arc::new(TestClock::new(now));
    (Limiter::new(BanPolicy::default(), clock.clone()), clock)
}

fn quota(per_minute: u64, per_day: u64) -> Quota {
    Quota {
        per_minute,
        per_day,
    }
}

/// Makes `n` requests that must all be allowed.
fn spend(limiter: &Limiter, subject: &Subject, quota: Quota, n: u64) {
    for i in 0..n {
        let decision = limiter.check(subject, quota);
        assert!(decision.is_allowed(), "request {} was {decision:?}", i + 1);
    }
}

fn limited_retry_after(decision: Decision) -> u64 {
    match decision {
        Decision::Limited { retry_after, .. } => retry_after,
        other => panic!("expected rate_limited, got {other:?}"),
    }
}

#[test]
fn the_first_request_is_allowed_and_reports_the_status_after_counting_it() {
    let (limiter, _) = limiter_at(MIDNIGHT + 18);
    let decision = limiter.check(&KEY, FREE);
    let Decision::Allowed(status) = decision else {
        panic!("{decision:?}");
    };
    assert_eq!(
        status.minute,
        WindowStatus {
            limit: 60,
            used: 1,
            remaining: 59,
            reset: MIDNIGHT + 60,
            reset_after: 42,
        }
    );
    assert_eq!((status.day.used, status.day.remaining), (1, 999));
    assert_eq!(status.day.reset, MIDNIGHT + 86_400);
    assert_eq!(decision.retry_after(), None);
    assert_eq!(decision.error_code(), None);
}

#[test]
fn a_request_at_second_59_counts_in_the_old_minute_and_one_at_second_60_in_the_new() {
    let (limiter, clock) = limiter_at(MIDNIGHT);
    spend(&limiter, &KEY, FREE, 59);
    clock.set(MIDNIGHT + 59);
    let last = limiter.check(&KEY, FREE);
    assert_eq!(last.status().minute.used, 60);
    assert_eq!(last.status().minute.reset, MIDNIGHT + 60);
    assert_eq!(limited_retry_after(limiter.check(&KEY, FREE)), 1);

    clock.set(MIDNIGHT + 60);
    let first = limiter.check(&KEY, FREE);
    assert!(first.is_allowed());
    assert_eq!(first.status().minute.used, 1);
    assert_eq!(first.status().minute.reset, MIDNIGHT + 120);
    assert_eq!(first.status().day.used, 61);
}

#[test]
fn the_sixty_first_request_in_a_minute_is_limited_until_the_minute_ends() {
    let (limiter, clock) = limiter_at(MIDNIGHT + 120);
    spend(&limiter, &KEY, FREE, 60);
    clock.set(MIDNIGHT + 120 + 18);
    let decision = limiter.check(&KEY, FREE);
    assert_eq!(decision.error_code(), Some(Code::RateLimited));
    assert_eq!(decision.retry_after(), Some(42));
    let status = decision.status();
    assert_eq!((status.minute.used, status.minute.remaining), (60, 0));
    assert_eq!(status.binding(), &status.minute);
    assert_eq!(status.binding().reset, MIDNIGHT + 180);
}

#[test]
fn retry_after_is_a_full_minute_at_its_first_second_and_one_at_its_last() {
    let (limiter, clock) = limiter_at(MIDNIGHT + 60);
    spend(&limiter, &KEY, quota(1, 1_000), 1);
    assert_eq!(
        limited_retry_after(limiter.check(&KEY, quota(1, 1_000))),
        60
    );
    clock.set(MIDNIGHT + 119);
    assert_eq!(limited_retry_after(limiter.check(&KEY, quota(1, 1_000))), 1);
}

#[test]
fn a_rejected_request_uses_no_quota_in_either_window() {
    let (limiter, _) = limiter_at(MIDNIGHT);
    spend(&limiter, &KEY, FREE, 60);
    for _ in 0..10 {
        assert!(!limiter.check(&KEY, FREE).is_allowed());
    }
    let status = limiter.peek(&KEY, FREE);
    assert_eq!((status.minute.used, status.day.used), (60, 60));
    assert_eq!(status.day.remaining, 940);
}

#[test]
fn a_full_day_is_limited_until_the_next_utc_midnight() {
    let (limiter, clock) = limiter_at(MIDNIGHT + 10);
    let q = quota(60, 3);
    spend(&limiter, &KEY, q, 3);
    clock.set(MIDNIGHT + 86_400 - 3_600);
    let decision = limiter.check(&KEY, q);
    assert_eq!(limited_retry_after(decision), 3_600);
    let status = decision.status();
    assert_eq!((status.minute.used, status.minute.remaining), (0, 60));
    assert_eq!(status.binding(), &status.day);
    assert_eq!(status.binding().reset, MIDNIGHT + 86_400);

    clock.set(MIDNIGHT + 86_399);
    assert_eq!(limited_retry_after(limiter.check(&KEY, q)), 1);
}

#[test]
fn the_day_count_starts_again_at_utc_midnight() {
    let (limiter, clock) = limiter_at(MIDNIGHT + 86_399);
    let q = quota(60, 3);
    spend(&limiter, &KEY, q, 3);
    assert!(!limiter.check(&KEY, q).is_allowed());
    clock.set(MIDNIGHT + 86_400);
    let decision = limiter.check(&KEY, q);
    assert!(decision.is_allowed());
    assert_eq!(decision.status().day.used, 1);
    assert_eq!(decision.status().minute.used, 1);
    assert_eq!(decision.status().day.reset, MIDNIGHT + 2 * 86_400);
}

#[test]
fn when_both_windows_are_full_retry_after_is_for_the_later_reset_the_day() {
    let (limiter, clock) = limiter_at(MIDNIGHT + 7_200);
    let q = quota(2, 2);
    spend(&limiter, &KEY, q, 2);
    clock.advance(30);
    let decision = limiter.check(&KEY, q);
    let status = decision.status();
    assert_eq!((status.minute.remaining, status.day.remaining), (0, 0));
    // The headers report the minute (a tie), but retrying when it resets would fail again.
    assert_eq!(status.binding(), &status.minute);
    assert_eq!(limited_retry_after(decision), 86_400 - 7_230);
}

#[test]
fn the_binding_window_is_the_one_with_fewer_remaining_and_the_minute_on_a_tie() {
    let (limiter, _) = limiter_at(MIDNIGHT);
    let q = quota(10, 15);
    spend(&limiter, &KEY, q, 4);
    let status = limiter.peek(&KEY, q);
    assert_eq!(status.binding(), &status.minute); // 6 left vs 11
    let status = limiter.peek(&KEY, quota(10, 10));
    assert_eq!(status.binding(), &status.minute); // 6 and 6: the minute
    let status = limiter.peek(&KEY, quota(10, 7));
    assert_eq!(status.binding(), &status.day); // 6 vs 3
}

#[test]
fn thirty_rejections_in_a_minute_do_not_ban() {
    let (limiter, clock) = limiter_at(MIDNIGHT);
    spend(&limiter, &KEY, FREE, 60);
    for _ in 0..30 {
        assert_eq!(
            limiter.check(&KEY, FREE).error_code(),
            Some(Code::RateLimited)
        );
    }
    assert_eq!(limiter.banned_until(&KEY), None);
    clock.set(MIDNIGHT + 60);
    assert!(limiter.check(&KEY, FREE).is_allowed());
}

#[test]
fn the_thirty_first_rejection_in_a_minute_bans_for_fifteen_minutes() {
    let (limiter, clock) = limiter_at(MIDNIGHT);
    spend(&limiter, &KEY, FREE, 60);
    clock.set(MIDNIGHT + 20);
    for _ in 0..31 {
        assert_eq!(
            limiter.check(&KEY, FREE).error_code(),
            Some(Code::RateLimited)
        );
    }
    assert_eq!(limiter.banned_until(&KEY), Some(MIDNIGHT + 920));

    clock.set(MIDNIGHT + 60); // a fresh minute with room, but banned
    let decision = limiter.check(&KEY, FREE);
    assert_eq!(
        decision,
        Decision::Banned {
            status: limiter.peek(&KEY, FREE),
            retry_after: 860,
            until: MIDNIGHT + 920,
        }
    );
    assert_eq!(decision.error_code(), Some(Code::TemporarilyBanned));
    assert_eq!(decision.status().minute.used, 0);
    assert_eq!(decision.status().day.used, 60);
}

#[test]
fn rejections_spread_over_two_minutes_do_not_ban() {
    let (limiter, clock) = limiter_at(MIDNIGHT);
    let q = quota(1, 1_000);
    spend(&limiter, &KEY, q, 1);
    for _ in 0..30 {
        assert!(!limiter.check(&KEY, q).is_allowed());
    }
    clock.set(MIDNIGHT + 60);
    spend(&limiter, &KEY, q, 1);
    for _ in 0..30 {
        assert_eq!(limiter.check(&KEY, q).error_code(), Some(Code::RateLimited));
    }
    assert_eq!(limiter.banned_until(&KEY), None);
}

#[test]
fn a_banned_subject_uses_no_quota_and_counts_no_rejections() {
    let (limiter, clock) = limiter_at(MIDNIGHT);
    let q = quota(1, 1_000);
    spend(&limiter, &KEY, q, 1);
    for _ in 0..31 {
        limiter.check(&KEY, q);
    }
    clock.set(MIDNIGHT + 899);
    for _ in 0..100 {
        let decision = limiter.check(&KEY, q);
        assert_eq!(decision.retry_after(), Some(1));
        assert_eq!(decision.error_code(), Some(Code::TemporarilyBanned));
    }
    assert_eq!(limiter.peek(&KEY, q).day.used, 1);
    // After the ban the subject starts with no refusals: 30 more do not ban again.
    clock.set(MIDNIGHT + 900);
    spend(&limiter, &KEY, q, 1);
    for _ in 0..30 {
        assert_eq!(limiter.check(&KEY, q).error_code(), Some(Code::RateLimited));
    }
    assert_eq!(limiter.banned_until(&KEY), None);
}

#[test]
fn a_ban_expires_by_itself() {
    let (limiter, clock) = limiter_at(MIDNIGHT + 5);
    spend(&limiter, &KEY, FREE, 60);
    for _ in 0..31 {
        limiter.check(&KEY, FREE);
    }
    let until = MIDNIGHT + 905;
    clock.set(until - 1);
    assert_eq!(limiter.banned_until(&KEY), Some(until));
    assert!(matches!(limiter.check(&KEY, FREE), Decision::Banned { .. }));
    clock.set(until);
    assert_eq!(limiter.banned_until(&KEY), None);
    let decision = limiter.check(&KEY, FREE);
    assert!(decision.is_allowed());
    assert_eq!(decision.status().day.used, 61);
}

#[test]
fn lifting_a_ban_lets_requests_through_and_clears_the_rejections() {
    let (limiter, clock) = limiter_at(MIDNIGHT);
    let q = quota(1, 1_000);
    spend(&limiter, &KEY, q, 1);
    for _ in 0..31 {
        limiter.check(&KEY, q);
    }
    assert!(limiter.banned_until(&KEY).is_some());
    limiter.lift_ban(&KEY);
    assert_eq!(limiter.banned_until(&KEY), None);
    // Still the same minute and its quota is spent: limited, not banned...
    assert_eq!(limiter.check(&KEY, q).error_code(), Some(Code::RateLimited));
    // ...and the count started again: 30 refusals in all are allowed before the next ban.
    for _ in 0..29 {
        assert_eq!(limiter.check(&KEY, q).error_code(), Some(Code::RateLimited));
    }
    assert_eq!(limiter.banned_until(&KEY), None);
    clock.set(MIDNIGHT + 60);
    assert!(limiter.check(&KEY, q).is_allowed());
}

#[test]
fn lifting_a_ban_on_an_unknown_subject_does_nothing() {
    let (limiter, _) = limiter_at(MIDNIGHT);
    limiter.lift_ban(&Subject::Key(99));
    assert_eq!(limiter.tracked(), 0);
}

#[test]
fn keys_and_addresses_are_counted_separately() {
    let (limiter, _) = limiter_at(MIDNIGHT);
    let addr = Subject::Addr(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1)));
    let other = Subject::Addr("2001:db8::1".parse().expect("address"));
    let q = quota(1, 10);
    spend(&limiter, &KEY, q, 1);
    spend(&limiter, &Subject::Key(2), q, 1);
    spend(&limiter, &addr, q, 1);
    spend(&limiter, &other, q, 1);
    assert!(!limiter.check(&addr, q).is_allowed());
    assert_eq!(limiter.tracked(), 4);
}

#[test]
fn an_enterprise_custom_quota_is_enforced() {
    let (limiter, clock) = limiter_at(MIDNIGHT);
    let custom = Plan::Enterprise
        .quota(Some(quota(3, 5)))
        .expect("custom quota");
    spend(&limiter, &KEY, custom, 3);
    assert_eq!(limiter.check(&KEY, custom).retry_after(), Some(60));
    clock.set(MIDNIGHT + 60);
    spend(&limiter, &KEY, custom, 2);
    let decision = limiter.check(&KEY, custom);
    assert_eq!(decision.retry_after(), Some(86_400 - 60));
    assert_eq!(decision.status().binding(), &decision.status().day);
    assert_eq!(decision.status().day.limit, 5);
}

#[test]
fn a_quota_of_zero_refuses_everything() {
    let (limiter, _) = limiter_at(MIDNIGHT);
    assert_eq!(limiter.check(&KEY, quota(0, 10)).retry_after(), Some(60));
    assert_eq!(
        limiter.check(&KEY, quota(10, 0)).retry_after(),
        Some(86_400)
    );
}

#[test]
fn peek_counts_nothing_and_does_not_track_new_subjects() {
    let (limiter, _) = limiter_at(MIDNIGHT + 30);
    let fresh = limiter.peek(&KEY, FREE);
    assert_eq!((fresh.minute.used, fresh.minute.remaining), (0, 60));
    assert_eq!(fresh.minute.reset, MIDNIGHT + 60);
    assert_eq!(limiter.tracked(), 0);
    spend(&limiter, &KEY, FREE, 2);
    assert_eq!(limiter.peek(&KEY, FREE), limiter.peek(&KEY, FREE));
    assert_eq!(limiter.peek(&KEY, FREE).day.used, 2);
}

#[test]
fn the_day_counts_snapshot_holds_only_todays_entries() {
    let (limiter, clock) = limiter_at(MIDNIGHT - 10);
    spend(&limiter, &Subject::Key(7), FREE, 5); // yesterday only
    clock.set(MIDNIGHT + 10);
    spend(&limiter, &KEY, FREE, 3);
    let addr = Subject::Addr(IpAddr::V4(Ipv4Addr::LOCALHOST));
    spend(&limiter, &addr, FREE, 1);
    let mut counts = limiter.counts(Span::Day);
    counts.sort_by_key(|(subject, _, _)| subject.to_string());
    assert_eq!(counts, vec![(addr, MIDNIGHT, 1), (KEY, MIDNIGHT, 3)]);
}

#[test]
fn restoring_todays_count_carries_the_day_over_a_restart() {
    let (before, clock) = limiter_at(MIDNIGHT + 3_600);
    spend(&before, &KEY, quota(60, 10), 8);
    let saved = before.counts(Span::Day);

    clock.advance(5);
    let after = Limiter::new(BanPolicy::default(), clock.clone());
    for (subject, day, count) in saved.iter().copied() {
        after.restore_day_count(subject, day, count);
        after.restore_day_count(subject, day, count); // twice is harmless
    }
    let status = after.peek(&KEY, quota(60, 10));
    assert_eq!((status.day.used, status.minute.used), (8, 0));
    spend(&after, &KEY, quota(60, 10), 2);
    assert_eq!(
        after.check(&KEY, quota(60, 10)).retry_after(),
        Some(86_400 - 3_605)
    );
}

#[test]
fn restoring_yesterdays_count_is_ignored() {
    let (limiter, _) = limiter_at(MIDNIGHT + 60);
    limiter.restore_day_count(KEY, MIDNIGHT - 86_400, 900);
    limiter.restore_day_count(Subject::Key(2), MIDNIGHT + 86_400, 900);
    assert_eq!(limiter.tracked(), 0);
    assert_eq!(limiter.peek(&KEY, FREE).day.used, 0);
    assert!(limiter.counts(Span::Day).is_empty());
}

#[test]
fn forget_idle_drops_stale_entries_and_keeps_active_and_banned_ones() {
    let (limiter, clock) = limiter_at(MIDNIGHT - 30);
    let yesterday = Subject::Key(10);
    let today = Subject::Key(11);
    let banned = Subject::Key(12);
    spend(&limiter, &yesterday, FREE, 1);
    clock.set(MIDNIGHT + 1);
    spend(&limiter, &today, FREE, 1);
    let q = quota(0, 0);
    for _ in 0..31 {
        limiter.check(&banned, q); // refused from the start: no quota used, then banned
    }
    assert_eq!(limiter.tracked(), 3);

    limiter.forget_idle();
    assert_eq!(limiter.tracked(), 2, "yesterday's subject is forgotten");
    assert_eq!(limiter.peek(&today, FREE).day.used, 1);

    clock.set(MIDNIGHT + 600);
    limiter.forget_idle();
    assert_eq!(limiter.tracked(), 2, "today's and the banned subject stay");
    assert!(limiter.banned_until(&banned).is_some());

    clock.set(MIDNIGHT + 901);
    limiter.forget_idle();
    assert_eq!(limiter.tracked(), 1, "the ban is over and it used no quota");

    clock.set(MIDNIGHT + 86_400);
    limiter.forget_idle();
    assert_eq!(limiter.tracked(), 0);
}

#[test]
fn forget_idle_keeps_a_subject_with_recent_rejections() {
    let (limiter, clock) = limiter_at(MIDNIGHT + 10);
    limiter.check(&KEY, quota(0, 0));
    limiter.forget_idle();
    assert_eq!(limiter.tracked(), 1);
    clock.set(MIDNIGHT + 60);
    limiter.forget_idle();
    assert_eq!(limiter.tracked(), 0);
}

#[test]
fn eight_threads_checking_one_free_subject_get_exactly_sixty_allowed() {
    let (limiter, _) = limiter_at(MIDNIGHT + 5);
    let limiter = Arc::new(limiter);
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let limiter = Arc::clone(&limiter);
            std::thread::spawn(move || {
                (0..100)
                    .filter(|_| limiter.check(&KEY, FREE).is_allowed())
                    .count()
            })
        })
        .collect();
    let allowed: usize = threads
        .into_iter()
        .map(|thread| thread.join().expect("thread"))
        .sum();
    assert_eq!(allowed, 60);
    let status = limiter.peek(&KEY, FREE);
    assert_eq!((status.minute.used, status.day.used), (60, 60));
    assert!(limiter.banned_until(&KEY).is_some(), "740 refusals ban it");
}

#[test]
fn the_headers_follow_the_decisions() {
    let (limiter, _) = limiter_at(MIDNIGHT + 23 * 3_600 + 18);
    let decision = limiter.check(&KEY, FREE);
    assert_eq!(
        ratelimit_header(decision.status()),
        "\"minute\";r=59;t=42, \"day\";r=999;t=3582"
    );
    assert_eq!(
        policy_header(FREE),
        "\"minute\";q=60;w=60, \"day\";q=1000;w=86400"
    );
}
