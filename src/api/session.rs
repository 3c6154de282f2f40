//! `/session`: a staff member signs in with name and PIN and gets a session key; the key
//! signs itself out (`DELETE /session`), and nothing else does: any other key gets 400 there
//! and keeps working. A paired device gives its own key back explicitly with `DELETE /pair`
//! (unpairing): any stored key but an admin's is revoked by it. Signing in needs no key, so it
//! is limited by address like any request without one; a name is locked for a device after too
//! many wrong PINs from it, each wrong PIN counts toward the device's ban, and when too many
//! PIN checks are waiting the answer is 503 with `Retry-After` (see `app::staff`).

use std::net::IpAddr;

use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::error::{ApiError, Result};
use super::extract::{Auth, Readonly};
use super::limit;
use super::respond;
use super::state::AppState;
use crate::app::SignInRefused;
use crate::contract::Code;
use crate::domain::key::Role;
use crate::domain::staff::{SignIn, SignInInput, StaffMember};
use crate::domain::time;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SessionView {
    secret: String,
    expires_at: String,
    staff: StaffMember,
}

/// The one answer for a wrong name, a wrong PIN or a disabled member.
fn wrong_name_or_pin() -> ApiError {
    ApiError::new(
        Code::Unauthorized,
        "that name and PIN do not match a staff member who may sign in",
    )
}

fn locked(retry_after: u64) -> Response {
    let minutes = retry_after.div_ceil(60);
    ApiError::new(
        Code::TemporarilyBanned,
        format!(
            "too many wrong PINs for this name from this device; it is locked for {minutes} more minute{}",
            if minutes == 1 { "" } else { "s" }
        ),
    )
    .with_retry_after(retry_after)
    .into_response()
}

/// Too many PIN checks running or waiting: nothing was counted.
fn busy(retry_after: u64) -> Response {
    ApiError::new(
        Code::Unavailable,
        "too many sign-ins are being checked right now; nothing was counted, try again shortly",
    )
    .with_retry_after(retry_after)
    .into_response()
}

/// `POST /session`: counted against the caller's address, then checked.
pub async fn sign_in(State(s): State<AppState>, req: Request) -> Response {
    limit::keyless(&s, req, |input: SignInInput, addr| answer(&s, input, addr)).await
}

async fn answer(s: &AppState, input: SignInInput, addr: IpAddr) -> Response {
    let attempt = match SignIn::try_from(input) {
        Ok(attempt) => attempt,
        Err(err) => return ApiError::from(err).into_response(),
    };
    match s.app.sign_in(attempt, addr).await {
        Ok(signed) => {
            let expires_at = chrono::DateTime::from_timestamp(signed.expires_at, 0)
                .map(time::format)
                .unwrap_or_default();
            respond::created(
                "/session".into(),
                &SessionView {
                    secret: signed.secret,
                    expires_at,
                    staff: signed.member,
                },
            )
        }
        Err(SignInRefused::Unknown) => wrong_name_or_pin().into_response(),
        Err(SignInRefused::Locked(wait)) => locked(wait),
        Err(SignInRefused::Busy(wait)) => busy(wait),
        Err(SignInRefused::Store(err)) => ApiError::from(err).into_response(),
    }
}

/// `DELETE /session`: ends the staff member's session whose key made the request. Any other
/// key (a stored key, a paired till's, the desktop window's) is not a session: 400, and the
/// key works on. A till unpairs with [`unpair`].
pub async fn sign_out(auth: Auth<Readonly>, State(s): State<AppState>) -> Result<Response> {
    let session = auth.caller.staff.ok_or_else(|| {
        ApiError::bad_request(
            "this key is not a staff member's session, so it has nothing to sign out and keeps \
             working; a paired device gives its key back with DELETE /pair, and an admin \
             revokes keys at /admin/keys",
        )
    })?;
    s.app.sign_out(session).await?;
    Ok(respond::no_content())
}

/// `DELETE /pair`: a paired device gives its own key back: the stored key that made the
/// request is revoked, as an admin's `DELETE /admin/keys/{keyId}` would, so an unpaired till
/// leaves no key behind. A staff member's session, an admin key and the desktop window's own
/// key are never revoked here (400).
pub async fn unpair(auth: Auth<Readonly>, State(s): State<AppState>) -> Result<Response> {
    let caller = &auth.caller;
    if caller.staff.is_some() {
        return Err(ApiError::bad_request(
            "this key is a staff member's session, not a paired device's key; it signs out \
             with DELETE /session",
        ));
    }
    if caller.role == Role::Admin || caller.key_id <= 0 {
        return Err(ApiError::bad_request(
            "an admin key is not unpaired; an admin revokes keys at /admin/keys",
        ));
    }
    s.app.keys().revoke(caller.key_id).await?;
    Ok(respond::no_content())
}
