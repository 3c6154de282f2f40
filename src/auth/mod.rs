//! Who is calling: API key secrets and the in-memory keyring that resolves them.
//!
//! Secrets are long random strings shown once; only their SHA-256 is stored. Every request
//! resolves its secret against the [`Keyring`], an in-memory copy of the active keys that
//! the app refreshes after each change (and every few seconds, for changes made from the
//! command line while the server runs).

mod keyring;
mod secret;

pub use keyring::{Caller, Keyring};
pub use secret::{hash, prefix, Secret};
