//! Staff members signing in and out: the app's part. A sign-in checks the name's lock, the
//! PIN (off the async runtime: Argon2id is slow on purpose) and opens a session key that the
//! keyring resolves like any key, with the member's role on the business plan. Wrong PINs
//! and locks are kept in the store ([`PIN_LOCK`]), so every process serving it counts the
//! same tries and honours the same lock.

use crate::auth::pin::{self, SESSION_IDLE};
use crate::auth::{self, Caller, Keyring, Secret, StaffSession};
use crate::domain::staff::{SignIn, StaffMember, PIN_LOCK};
use crate::domain::text;
use crate::store::{self, Store, StoreError};

use super::App;

/// Why a sign-in was refused.
#[derive(Debug)]
pub enum SignInRefused {
    /// Wrong name or PIN, or a disabled member: one answer for all.
    Unknown,
    /// The name is locked after too many wrong PINs, for this many more seconds.
    Locked(u64),
    Store(StoreError),
}

impl From<StoreError> for SignInRefused {
    fn from(err: StoreError) -> Self {
        Self::Store(err)
    }
}

/// A new session: its secret (shown once), when it ends if unused, and who it is.
pub struct SignedIn {
    pub secret: String,
    pub expires_at: i64,
    pub member: StaffMember,
}

impl App {
    /// Signs a member in by name and PIN.
    pub async fn sign_in(&self, attempt: SignIn) -> Result<SignedIn, SignInRefused> {
        let folded = text::fold(&attempt.name);
        let now = self.now();
        if let Some(until) = self
            .store()
            .sign_ins()
            .locked_until(folded.clone(), now)
            .await?
        {
            return Err(SignInRefused::Locked((until - now).max(1) as u64));
        }
        let found = self
            .store()
            .staff()
            .by_name(attempt.name.clone())
            .await?
            .filter(|(member, _)| member.is_enabled());
        let (member, phc) = match found {
            Some((member, phc)) => (Some(member), Some(phc)),
            None => (None, None),
        };
        let pin = attempt.pin;
        let matched = tokio::task::spawn_blocking(move || pin::verify_pin(&pin, phc.as_deref()))
            .await
            .unwrap_or(false);
        let member = match member {
            Some(member) if matched => member,
            _ => {
                self.store()
                    .sign_ins()
                    .fail(folded, self.now(), PIN_LOCK)
                    .await?;
                return Err(SignInRefused::Unknown);
            }
        };
        self.store().sign_ins().clear(folded).await?;
        let secret = Secret::generate().into_string();
        let hash = auth::hash(&secret);
        let now = self.now();
        let staff_id = member.id;
        let session_id = self
            .store()
            .staff()
            .open_session(staff_id, hash.clone(), now, now - SESSION_IDLE)
            .await?;
        let session = StaffSession {
            staff_id,
            session_id,
        };
        self.keyring().add_staff(
            hash,
            Caller::for_staff(session, member.name.clone(), member.role, now),
        );
        Ok(SignedIn {
            secret,
            expires_at: now + SESSION_IDLE,
            member,
        })
    }

    /// Ends a member's session.
    pub async fn sign_out(&self, session: StaffSession) -> Result<(), StoreError> {
        self.keyring().remove_staff(session.session_id);
        self.store().staff().end_session(session.session_id).await
    }
}

/// The keyring's callers for the open staff sessions.
pub(super) fn callers(sessions: Vec<store::staff::OpenSession>) -> Vec<(String, Caller)> {
    sessions
        .into_iter()
        .map(|s| {
            let session = StaffSession {
                staff_id: s.member.id,
                session_id: s.id,
            };
            let caller = Caller::for_staff(session, s.member.name, s.member.role, s.last_used);
            (s.secret_hash, caller)
        })
        .collect()
}

/// Saves when staff sessions were last used, as this process saw it.
pub(super) fn save_session_uses(store: &Store, keyring: &Keyring) -> Result<(), StoreError> {
    let uses = keyring.staff_uses();
    if uses.is_empty() {
        return Ok(());
    }
    store.staff().touch_sessions(uses).wait()
}
