//! Staff PINs: hashing with Argon2id.
//!
//! A PIN has only 10^4 to 10^8 values, so two things guard it. The stored form is Argon2id
//! (the `argon2` crate of RustCrypto, its default parameters: 19 MiB, 2 passes), salted per
//! member, so a copied store file does not give the PINs away cheaply. And wrong attempts
//! are counted per name in the store (`store.sign_ins()`, shared by every process serving
//! it): [`PIN_LOCK`](crate::domain::staff::PIN_LOCK) says how many within how long lock the
//! name, and for how long, whether or not a member has that name (so the lock does not tell
//! which names exist).

use std::sync::OnceLock;

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use crate::contract;

/// Seconds without use after which a staff session ends.
pub const SESSION_IDLE: i64 = contract::SESSION_IDLE_HOURS * 3600;

/// The Argon2id PHC string of a PIN, with a fresh random salt.
pub fn hash_pin(pin: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(pin.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash a PIN: {e}"))
}

/// A hash of the same cost as a member's, checked when a name belongs to no one.
pub(crate) fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| hash_pin("00000000").unwrap_or_default())
}

/// Whether `pin` matches the stored `phc` string. With no stored hash (no such member),
/// a hash of the same cost is still checked, so the answer takes as long either way.
pub fn verify_pin(pin: &str, phc: Option<&str>) -> bool {
    let Ok(parsed) = PasswordHash::new(phc.unwrap_or_else(|| dummy_hash())) else {
        return false;
    };
    let matched = Argon2::default()
        .verify_password(pin.as_bytes(), &parsed)
        .is_ok();
    matched && phc.is_some()
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
}
