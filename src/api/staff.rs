//! `/admin/staff`: the shop's people, who sign in with a name and a PIN.

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;

use super::error::{ApiError, Result};
use super::extract::{Admin, Auth, Id, IfMatch, JsonBody};
use super::query::Query;
use super::respond;
use super::state::AppState;
use crate::auth::pin;
use crate::domain::query::Page;
use crate::domain::staff::{NewStaff, NewStaffInput, StaffPatch, StaffPatchInput};
use crate::domain::text;

/// Hashes a PIN off the async runtime (Argon2id takes tens of milliseconds on purpose).
async fn hash(pin: String) -> Result<String> {
    tokio::task::spawn_blocking(move || pin::hash_pin(&pin))
        .await
        .map_err(|_| ApiError::internal())?
        .map_err(|err| {
            tracing::error!(%err, "hashing a PIN failed");
            ApiError::internal()
        })
}

/// Members, oldest first, paged like every list (a shop has a handful; cut in memory).
pub async fn list(
    _: Auth<Admin>,
    State(s): State<AppState>,
    uri: Uri,
    Query(page): Query<Page>,
) -> Result<Response> {
    let all = s.app.store().staff().list().await?;
    Ok(respond::page_of_all(
        &uri,
        page,
        all,
        std::convert::identity,
    ))
}

pub async fn create(
    _: Auth<Admin>,
    State(s): State<AppState>,
    body: JsonBody<NewStaffInput>,
) -> Result<Response> {
    let new = NewStaff::try_from(body.value)?;
    let pin_hash = hash(new.pin.expose().to_owned()).await?;
    let member = s
        .app
        .store()
        .staff()
        .create(new.name, new.role, pin_hash)
        .await?;
    Ok(respond::created(
        format!("/admin/staff/{}", member.id),
        &member,
    ))
}

/// Lifts the locks that wrong PINs put on a member's name, on every device, and forgets the
/// wrong PINs counted toward the next one: the member may sign in again at once.
pub async fn lift_lock(_: Auth<Admin>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let member = s.app.store().staff().get(id).await?;
    s.app
        .store()
        .sign_ins()
        .lift(text::fold(&member.name))
        .await?;
    Ok(respond::no_content())
}

/// Changes a member. Disabling ends their sessions at once; a new role applies to their
/// open sessions too.
pub async fn update(
    _: Auth<Admin>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
    body: JsonBody<StaffPatchInput>,
) -> Result<Response> {
    let patch = StaffPatch::try_from(body.value)?;
    let pin_hash = match &patch.pin {
        Some(pin) => Some(hash(pin.expose().to_owned()).await?),
        None => None,
    };
    let member = s
        .app
        .store()
        .staff()
        .update(id, patch, pin_hash, pre)
        .await?;
    // Sessions follow the member's role and end when they are disabled.
    s.app.keys().reload().await?;
    Ok(respond::record(&member))
}
