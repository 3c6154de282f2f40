//! `/store/shifts`: opening and closing a till's cash drawer, and reading its figures (the
//! Z report).

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;

use super::error::{ApiError, Result};
use super::extract::{Auth, Id, JsonBody, Pos, Readonly};
use super::query::{FromParams, Params, Query};
use super::respond;
use super::state::AppState;
use crate::domain::query::ShiftQuery;
use crate::domain::sale::TILL;
use crate::domain::shift_record::{CloseInput, CountedCash, NewShift, ShiftInput, ShiftStatus};

impl FromParams for ShiftQuery {
    const NAMES: &'static [&'static str] = &["limit", "offset", "after", "till", "status"];
    fn from_params(params: &Params) -> Result<Self, ApiError> {
        let till = params.bounded("till", TILL)?;
        let status = match params.get("status") {
            None => None,
            Some(raw) => Some(ShiftStatus::parse("status", raw).map_err(|_| {
                ApiError::bad_request("query parameter \"status\" must be open or closed")
            })?),
        };
        Ok(Self {
            till,
            status,
            page: params.page()?,
        })
    }
}

pub async fn list(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Query(query): Query<ShiftQuery>,
) -> Result<Response> {
    let page = query.page;
    let list = s.app.store().shifts().list(query).await?;
    Ok(respond::keyed_page(&uri, page, &list, |shift| shift.id))
}

pub async fn open(
    auth: Auth<Pos>,
    State(s): State<AppState>,
    body: JsonBody<ShiftInput>,
) -> Result<Response> {
    let new = NewShift::try_from(body.value)?;
    let shift = s.app.store().shifts().open(new, auth.key_name()).await?;
    Ok(respond::created(
        format!("/store/shifts/{}", shift.id),
        &shift,
    ))
}

pub async fn get(_: Auth<Readonly>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let shift = s.app.store().shifts().get(id).await?;
    Ok(respond::record(&shift))
}

pub async fn close(
    auth: Auth<Pos>,
    State(s): State<AppState>,
    Id(id): Id,
    body: JsonBody<CloseInput>,
) -> Result<Response> {
    let counted = CountedCash::try_from(body.value)?;
    let shift = s
        .app
        .store()
        .shifts()
        .close(id, counted, auth.key_name())
        .await?;
    Ok(respond::record(&shift))
}
