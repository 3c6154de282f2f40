//! Staff PINs: hashing with Argon2id, and the lock on a name after too many wrong PINs.
//!
//! A PIN has only 10^4 to 10^8 values, so two things guard it. The stored form is Argon2id
//! (the `argon2` crate of RustCrypto, its default parameters: 19 MiB, 2 passes), salted per
//! member, so a copied store file does not give the PINs away cheaply. And [`SignInGuard`]
//! counts wrong attempts per name: [`MAX_FAILURES`] within [`FAILURE_WINDOW`] seconds lock
//! that name for [`LOCK_FOR`] seconds, whether or not a member has that name (so the lock
//! does not tell which names exist). The guard is plain data with the time passed in.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use crate::contract;

/// Wrong attempts for one name that lock it.
pub const MAX_FAILURES: usize = contract::PIN_FAILURES as usize;
/// Seconds within which [`MAX_FAILURES`] wrong attempts lock a name.
pub const FAILURE_WINDOW: i64 = contract::PIN_LOCK_MINUTES * 60;
/// Seconds a name stays locked.
pub const LOCK_FOR: i64 = contract::PIN_LOCK_MINUTES * 60;
/// Seconds without use after which a staff session ends.
pub const SESSION_IDLE: i64 = contract::SESSION_IDLE_HOURS * 3600;
/// Most names the guard tracks; past it, names with nothing recent are forgotten first.
const TRACKED_MAX: usize = 10_000;

/// The Argon2id PHC string of a PIN, with a fresh random salt.
pub fn hash_pin(pin: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(pin.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash a PIN: {e}"))
}

/// Whether `pin` matches the stored `phc` string. With no stored hash (no such member),
/// a hash of the same cost is still checked, so the answer takes as long either way.
pub fn verify_pin(pin: &str, phc: Option<&str>) -> bool {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let dummy = DUMMY.get_or_init(|| hash_pin("00000000").unwrap_or_default());
    let Ok(parsed) = PasswordHash::new(phc.unwrap_or(dummy)) else {
        return false;
    };
    let matched = Argon2::default()
        .verify_password(pin.as_bytes(), &parsed)
        .is_ok();
    matched && phc.is_some()
}

#[derive(Default)]
struct Attempts {
    /// Unix seconds of the recent wrong attempts, oldest first.
    failures: Vec<i64>,
    locked_until: i64,
}

/// Wrong-PIN counts and locks, by folded name.
#[derive(Default)]
pub struct SignInGuard {
    names: Mutex<HashMap<String, Attempts>>,
}

impl SignInGuard {
    /// Seconds until `name` may try again, when it is locked at `now`.
    pub fn locked(&self, name: &str, now: i64) -> Option<u64> {
        let names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        let until = names.get(name)?.locked_until;
        (until > now).then(|| (until - now) as u64)
    }

    /// Counts a wrong attempt for `name` at `now`; the name is locked when it makes
    /// [`MAX_FAILURES`] within the window.
    pub fn fail(&self, name: &str, now: i64) {
        let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        if names.len() >= TRACKED_MAX && !names.contains_key(name) {
            names.retain(|_, a| {
                a.locked_until > now || a.failures.last().is_some_and(|&t| t > now - FAILURE_WINDOW)
            });
        }
        let attempts = names.entry(name.to_owned()).or_default();
        attempts.failures.retain(|&t| t > now - FAILURE_WINDOW);
        attempts.failures.push(now);
        if attempts.failures.len() >= MAX_FAILURES {
            attempts.locked_until = now + LOCK_FOR;
            attempts.failures.clear();
        }
    }

    /// Forgets the wrong attempts of `name` after a right one.
    pub fn succeed(&self, name: &str) {
        self.names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pin_matches_only_its_own_hash_and_the_hash_is_argon2id() {
        let phc = hash_pin("2468").unwrap();
        assert!(phc.starts_with("$argon2id$"));
        assert!(!phc.contains("2468"));
        assert!(verify_pin("2468", Some(&phc)));
        assert!(!verify_pin("2469", Some(&phc)));
        assert!(!verify_pin("00000000", None), "no member never matches");
        assert_ne!(phc, hash_pin("2468").unwrap(), "salted");
    }

    #[test]
    fn five_wrong_pins_within_fifteen_minutes_lock_the_name_for_fifteen_minutes() {
        let guard = SignInGuard::default();
        for i in 0..4 {
            guard.fail("ann", 1000 + i * 60);
            assert_eq!(guard.locked("ann", 1000 + i * 60), None);
        }
        guard.fail("ann", 1300);
        assert_eq!(guard.locked("ann", 1300), Some(900));
        assert_eq!(guard.locked("ann", 2199), Some(1));
        assert_eq!(guard.locked("ann", 2200), None);
        assert_eq!(
            guard.locked("bob", 1300),
            None,
            "other names are not locked"
        );
    }

    #[test]
    fn wrong_pins_spread_over_more_than_fifteen_minutes_do_not_lock() {
        let guard = SignInGuard::default();
        for i in 0..10 {
            guard.fail("ann", i * 300);
            assert_eq!(guard.locked("ann", i * 300), None);
        }
    }

    #[test]
    fn a_right_pin_forgets_the_wrong_ones() {
        let guard = SignInGuard::default();
        for _ in 0..4 {
            guard.fail("ann", 10);
        }
        guard.succeed("ann");
        guard.fail("ann", 11);
        assert_eq!(guard.locked("ann", 11), None);
    }
}
