//! Who is calling: API key secrets and the in-memory keyring that resolves them.
//!
//! Secrets are long random strings shown once; only their SHA-256 is stored. Every request
//! resolves its secret against the [`Keyring`], an in-memory copy of the active keys that
//! the app refreshes after each change (and every few seconds, for changes made from the
//! command line while the server runs). Staff members' sign-in sessions resolve the same
//! way and act with the member's role; [`pin`] guards their PINs and [`pin_checks`] runs
//! their checks on a few threads of their own.

mod keyring;
pub mod pin;
pub mod pin_checks;
mod secret;

pub use keyring::{Caller, Keyring, StaffSession, STAFF_SESSION_PLAN};
pub use secret::{hash, prefix, Secret};
