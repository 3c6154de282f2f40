//! Generating and hashing key secrets.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// The start of every secret this program makes, so a leaked one is easy to recognise.
const MARK: &str = "psk_";

/// A new key secret: 256 random bits from the operating system.
pub struct Secret(String);

impl Secret {
    pub fn generate() -> Self {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        Self(format!("{MARK}{}", hex::encode(bytes)))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

/// The stored form of a secret: its SHA-256 in lower-case hex. Every request with a key
/// computes it, so the hex is written into a buffer (`hex::encode` builds its string a
/// character at a time, half the cost of the lookup in the read profile).
pub fn hash(secret: &str) -> String {
    let mut text = [0u8; 64];
    // 32 bytes always fit 64 hex digits, and hex digits are always UTF-8.
    let _ = hex::encode_to_slice(Sha256::digest(secret.as_bytes()), &mut text);
    std::str::from_utf8(&text).unwrap_or_default().to_owned()
}

/// The part of a secret that listings show, to tell keys apart.
pub fn prefix(secret: &str) -> String {
    secret.chars().take(MARK.len() + 8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_long_random_and_never_printed_by_debug() {
        let a = Secret::generate();
        let b = Secret::generate();
        assert_ne!(a.expose(), b.expose());
        assert_eq!(a.expose().len(), 4 + 64);
        assert!(!format!("{a:?}").contains(a.expose()));
    }

    #[test]
    fn the_hash_is_stable_and_is_not_the_secret() {
        assert_eq!(hash("x"), hash("x"));
        assert_ne!(hash("x"), "x");
        assert_eq!(prefix("psk_0123456789abcdef"), "psk_01234567");
    }
}
