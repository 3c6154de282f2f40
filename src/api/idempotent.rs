//! Running a write under an `Idempotency-Key`: a repeat while the first is still being
//! processed is 409 `conflict`; otherwise the store replays or acts (see
//! [`crate::store::idempotency`]).

use serde::Serialize;

use super::error::Result;
use super::state::AppState;
use crate::app::App;
use crate::auth::Caller;
use crate::domain::DomainError;
use crate::store::idempotency::{self, Answer, Scope};
use crate::store::{self as store, Tx};

/// Ends the in-flight mark however the request ends (answered, failed or dropped).
struct InFlight<'a> {
    app: &'a App,
    scope: Scope,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.app.end_idempotent(&self.scope);
    }
}

/// Runs `act` once for `key` (if the client sent one), answering `status` when it acts.
pub async fn run<T, F>(
    s: &AppState,
    caller: &Caller,
    key: Option<String>,
    request_hash: String,
    status: u16,
    act: F,
) -> Result<Answer<T>>
where
    T: Serialize + Send + 'static,
    F: FnOnce(&mut Tx<'_>) -> store::Result<T> + Send + 'static,
{
    let scope = key.map(|key| Scope {
        key_id: caller.key_id,
        key,
        request_hash,
    });
    let _guard = match &scope {
        Some(scope) if !s.app.begin_idempotent(scope) => {
            return Err(DomainError::IdempotencyInProgress.into());
        }
        Some(scope) => Some(InFlight {
            app: &s.app,
            scope: scope.clone(),
        }),
        None => None,
    };
    let answer = s
        .app
        .store()
        .write(move |tx| idempotency::once(tx, scope.as_ref(), status, act))
        .await?;
    Ok(answer)
}
