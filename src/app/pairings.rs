//! Pairing codes waiting to be used, in this process's memory: a code lives 10 minutes and
//! is used up by the first device that presents it. A restart forgets them (an admin makes
//! a new one in a second), and nothing secret is ever stored.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::domain::key::NewKey;
use crate::domain::pairing::{new_code, VALID_SECS};

/// Most codes waiting at once; beyond it the oldest is dropped.
const MAX_WAITING: usize = 100;

/// A code waiting for its device.
#[derive(Debug, Clone)]
pub struct Pairing {
    pub code: String,
    pub key: NewKey,
    /// Unix seconds.
    pub expires_at: i64,
}

/// The waiting codes.
#[derive(Default)]
pub struct Pairings {
    waiting: Mutex<HashMap<String, Pairing>>,
}

impl Pairings {
    /// Opens a new code for a key like `key`, valid from `now` (Unix seconds).
    pub fn open(&self, key: NewKey, now: i64) -> Pairing {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        waiting.retain(|_, p| p.expires_at > now);
        if waiting.len() >= MAX_WAITING {
            if let Some(oldest) = waiting
                .values()
                .min_by_key(|p| p.expires_at)
                .map(|p| p.code.clone())
            {
                waiting.remove(&oldest);
            }
        }
        let mut code = new_code();
        while waiting.contains_key(&code) {
            code = new_code();
        }
        let pairing = Pairing {
            code: code.clone(),
            key,
            expires_at: now + VALID_SECS,
        };
        waiting.insert(code, pairing.clone());
        pairing
    }

    /// The waiting pairing with this code, if it has not expired or been used.
    pub fn find(&self, code: &str, now: i64) -> Option<Pairing> {
        let waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        waiting.get(code).filter(|p| p.expires_at > now).cloned()
    }

    /// Uses up the code: answers its pairing once, and never again.
    pub fn redeem(&self, code: &str, now: i64) -> Option<Pairing> {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        waiting.remove(code).filter(|p| p.expires_at > now)
    }
}
