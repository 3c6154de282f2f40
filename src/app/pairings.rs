//! Pairing codes waiting to be used, kept in the store so that every process serving it
//! knows them: a code opened on one process is redeemed on any (behind a load balancer), and
//! a restart forgets none. A code lives 10 minutes and is used up by the first device that
//! presents it, whichever process it reaches. Nothing secret is ever stored: the store keeps
//! only the SHA-256 hash of the code, beside the key it will make.

use crate::auth;
use crate::domain::key::NewKey;
use crate::domain::pairing::{new_code, WaitingPairing, VALID_SECS};
use crate::store::{Store, StoreError};

/// Most codes waiting at once; beyond it the one that ends first is dropped.
const MAX_WAITING: usize = 100;

/// Codes drawn before giving up when each one drawn is already waiting (with 31^8 codes and
/// at most 100 waiting, a second draw is already rare).
const DRAWS: usize = 8;

/// A code waiting for its device.
#[derive(Debug, Clone)]
pub struct Pairing {
    pub code: String,
    pub key: NewKey,
    /// Unix seconds.
    pub expires_at: i64,
}

/// The waiting codes, in the store.
pub struct Pairings {
    store: Store,
}

/// How the store names a code: the SHA-256 of its normalised form.
fn code_hash(code: &str) -> String {
    auth::hash(code)
}

impl Pairings {
    pub fn new(store: Store) -> Self {
        Self { store }
    }

    /// Opens a new code for a key like `key`, valid from `now` (Unix seconds).
    pub async fn open(&self, key: NewKey, now: i64) -> Result<Pairing, StoreError> {
        let waiting = WaitingPairing {
            key,
            expires_at: now + VALID_SECS,
        };
        for _ in 0..DRAWS {
            let code = new_code();
            let stored = self
                .store
                .pairings()
                .open(code_hash(&code), waiting.clone(), now, MAX_WAITING)
                .await?;
            if stored {
                return Ok(with_code(&code, waiting));
            }
        }
        Err(StoreError::Internal(
            "no free pairing code was found; try again".into(),
        ))
    }

    /// The waiting pairing with this (normalised) code, if it has not expired or been used.
    pub async fn find(&self, code: &str, now: i64) -> Result<Option<Pairing>, StoreError> {
        let found = self.store.pairings().find(code_hash(code), now).await?;
        Ok(found.map(|p| with_code(code, p)))
    }

    /// Uses up the (normalised) code: answers its pairing once, on whichever process, and
    /// never again.
    pub async fn redeem(&self, code: &str, now: i64) -> Result<Option<Pairing>, StoreError> {
        let taken = self.store.pairings().redeem(code_hash(code), now).await?;
        Ok(taken.map(|p| with_code(code, p)))
    }
}

fn with_code(code: &str, waiting: WaitingPairing) -> Pairing {
    Pairing {
        code: code.to_owned(),
        key: waiting.key,
        expires_at: waiting.expires_at,
    }
}
