//! `/store/profile`: the shop's name, currency and time zone.

use axum::extract::State;
use axum::response::Response;

use super::error::Result;
use super::extract::{Admin, Auth, JsonBody, Readonly};
use super::query::{NoParams, Query};
use super::respond;
use super::state::AppState;
use crate::domain::profile::{ProfilePatch, ProfilePatchInput};

pub async fn get(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    _: Query<NoParams>,
) -> Result<Response> {
    let profile = s.app.store().profile().get().await?;
    Ok(respond::record(&profile))
}

pub async fn patch(
    _: Auth<Admin>,
    State(s): State<AppState>,
    body: JsonBody<ProfilePatchInput>,
) -> Result<Response> {
    let patch = ProfilePatch::try_from(body.value)?;
    let profile = s.app.store().profile().patch(patch).await?;
    Ok(respond::record(&profile))
}
