//! Staff members signing in and out: the app's part. A sign-in takes its name's turn (one
//! PIN check per name at a time in this process) and a place among the PIN checks
//! (`auth::pin_checks`: a few at once, a short queue, refused past it), then makes one write
//! that refuses a locked subject and otherwise counts the attempt as a wrong PIN *before*
//! the PIN is checked, so a burst of concurrent sign-ins cannot check more PINs than the
//! lock allows. A right PIN then makes one more write: the count cleared and the session
//! opened, which the keyring resolves like any key, with the member's role on the business
//! plan.
//!
//! Wrong PINs and locks are kept in the store ([`PIN_LOCK`]), so every process serving it
//! counts the same tries. They are counted per *subject*: the folded name and the network of
//! the device signing in (`limits::client_net`), so a device guessing a name locks that name
//! for itself, not for the counter PC or the other tablets. Every wrong PIN also counts
//! toward the device's ban, like any refused request, so a device guessing many names is
//! shut out.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use crate::auth::pin::SESSION_IDLE;
use crate::auth::pin_checks::PinChecks;
use crate::auth::{self, Caller, Keyring, Secret, StaffSession};
use crate::domain::staff::{SignIn, StaffMember, PIN_LOCK};
use crate::domain::text;
use crate::limits::{client_net, Subject};
use crate::store::sign_ins::Claim;
use crate::store::{self, Store, StoreError};

use super::App;

/// Why a sign-in was refused.
#[derive(Debug)]
pub enum SignInRefused {
    /// Wrong name or PIN, or a disabled member: one answer for all.
    Unknown,
    /// The name is locked for this device after too many wrong PINs, for this many more
    /// seconds.
    Locked(u64),
    /// Too many PIN checks are running or waiting: try again in this many seconds.
    Busy(u64),
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

/// Whose wrong PINs a sign-in counts under: the folded name and the device's network. The
/// network has no `@`, so the last one splits the two.
fn subject(folded: &str, client: IpAddr) -> String {
    format!("{folded}@{}", client_net(client))
}

/// The sign-ins of this process: the PIN-check workers and one turn per name.
pub(super) struct SignIns {
    checks: PinChecks,
    turns: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// A name's turn; the name's entry goes when its last holder or waiter lets go.
struct Turn<'a> {
    sign_ins: &'a SignIns,
    name: String,
    turn: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut turns = self
            .sign_ins
            .turns
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        drop(self.turn.take());
        if turns
            .get(&self.name)
            .is_some_and(|m| Arc::strong_count(m) == 1)
        {
            turns.remove(&self.name);
        }
    }
}

impl SignIns {
    pub(super) fn start() -> std::io::Result<Self> {
        Ok(Self {
            checks: PinChecks::start()?,
            turns: Mutex::default(),
        })
    }

    /// Waits for `name`'s turn: one PIN check per name at a time.
    async fn turn(&self, name: &str) -> Turn<'_> {
        let mutex = self
            .turns
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(name.to_owned())
            .or_default()
            .clone();
        let mut turn = Turn {
            sign_ins: self,
            name: name.to_owned(),
            turn: None,
        };
        turn.turn = Some(mutex.lock_owned().await);
        turn
    }
}

impl App {
    /// Signs a member in by name and PIN, from a device at `client`.
    pub async fn sign_in(
        &self,
        attempt: SignIn,
        client: IpAddr,
    ) -> Result<SignedIn, SignInRefused> {
        let sign_ins = &self.inner.sign_ins;
        let folded = text::fold(&attempt.name);
        let _turn = sign_ins.turn(&folded).await;
        let place = sign_ins
            .checks
            .reserve()
            .ok_or(SignInRefused::Busy(auth::pin_checks::RETRY_AFTER_SECS))?;
        let subject = subject(&folded, client);
        let now = self.now();
        let claim = self
            .store()
            .sign_ins()
            .claim(subject.clone(), attempt.name.clone(), now, PIN_LOCK)
            .await?;
        let refuse = |refusal| {
            self.limiter()
                .record_refusal(&Subject::Addr(client_net(client)));
            Err(refusal)
        };
        let found = match claim {
            Claim::Locked(until) => {
                return refuse(SignInRefused::Locked((until - now).max(1) as u64))
            }
            Claim::Counted(found) => found,
        };
        let (member, phc) = found.map_or((None, None), |(m, phc)| (Some(m), Some(phc)));
        let matched = place.check(attempt.pin, phc).await;
        let member = match member {
            Some(member) if matched => member,
            _ => return refuse(SignInRefused::Unknown),
        };
        let secret = Secret::generate().into_string();
        let hash = auth::hash(&secret);
        let now = self.now();
        let staff_id = member.id;
        let session_id = self
            .store()
            .sign_ins()
            .signed_in(subject, staff_id, hash.clone(), now, now - SESSION_IDLE)
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
        self.keys().end_session(session.session_id).await
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
