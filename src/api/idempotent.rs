//! Running a write under an `Idempotency-Key`: a repeat while the first is still being
//! processed is 409 `conflict`; otherwise the store replays or acts (see
//! [`crate::store::Call::once`]).

use serde::Serialize;

use super::error::Result;
use super::state::AppState;
use crate::auth::Caller;
use crate::domain::idempotency::{Answer, Scope};
use crate::store::Call;

/// Runs the write `call` once for `key` (if the client sent one).
pub async fn run<T>(
    s: &AppState,
    caller: &Caller,
    key: Option<String>,
    request_hash: String,
    call: Call<'_, T>,
) -> Result<Answer<T>>
where
    T: Serialize + Send + 'static,
{
    let scope = key.map(|key| Scope {
        key_id: caller.key_id,
        key,
        request_hash,
    });
    // Held until the answer is in (or the request is dropped): a repeat meanwhile is refused.
    let _in_flight = match &scope {
        Some(scope) => Some(s.app.idempotency().begin(scope)?),
        None => None,
    };
    Ok(call.once(scope).await?)
}
