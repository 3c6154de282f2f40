//! `/pets/{petId}/care` and `/store/care/due`: a pet's care log (added to, never changed) and
//! what care falls due.

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;

use super::error::{ApiError, Result};
use super::extract::{Auth, Id, JsonBody, Readonly, Staff};
use super::query::{FromParams, Params, Query};
use super::respond;
use super::state::AppState;
use crate::contract::{CARE_WITHIN, CARE_WITHIN_DEFAULT};
use crate::domain::care::{CareInput, CareKind, NewCare};
use crate::domain::query::Page;

/// `GET /pets/{petId}/care`'s query: the page and an optional `kind`.
pub struct CareQuery {
    pub kind: Option<CareKind>,
    pub page: Page,
}

impl FromParams for CareQuery {
    const NAMES: &'static [&'static str] = &["limit", "offset", "kind"];
    fn from_params(params: &Params) -> Result<Self> {
        let kind = match params.get("kind") {
            None => None,
            Some(raw) => Some(CareKind::parse(raw.trim()).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "query parameter \"kind\": {raw:?} is not one of {}",
                    CareKind::listed()
                ))
            })?),
        };
        Ok(Self {
            kind,
            page: params.page()?,
        })
    }
}

/// `GET /store/care/due`'s query: how many days ahead to look.
pub struct DueQuery {
    pub within: i64,
}

impl FromParams for DueQuery {
    const NAMES: &'static [&'static str] = &["within"];
    fn from_params(params: &Params) -> Result<Self> {
        Ok(Self {
            within: params
                .int("within", CARE_WITHIN.min, CARE_WITHIN.max)?
                .unwrap_or(CARE_WITHIN_DEFAULT),
        })
    }
}

pub async fn record(
    auth: Auth<Staff>,
    State(s): State<AppState>,
    Id(pet_id): Id,
    body: JsonBody<CareInput>,
) -> Result<Response> {
    let new = NewCare::try_from(body.value)?;
    let entry = s
        .app
        .store()
        .care()
        .record(pet_id, new, auth.key_name())
        .await?;
    Ok(respond::created(format!("/pets/{pet_id}/care"), &entry))
}

pub async fn list(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Id(pet_id): Id,
    Query(query): Query<CareQuery>,
) -> Result<Response> {
    let list = s
        .app
        .store()
        .care()
        .list(pet_id, query.kind, query.page)
        .await?;
    Ok(respond::page(&uri, query.page, &list))
}

pub async fn due(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    Query(query): Query<DueQuery>,
) -> Result<Response> {
    let care = s.app.store().care();
    // Remembered since nothing it shows changed: answered with its JSON as first made.
    let due = match care.remembered(query.within) {
        Some(hit) => hit,
        None => care.due(query.within).await?,
    };
    let body = due.rendered.get_or_init(|| respond::json_of(&due.items));
    Ok(respond::json_body(body.clone()))
}
