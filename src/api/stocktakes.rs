//! `/store/stocktakes`: counting the shelves and applying the counts.

use axum::extract::{Path, State};
use axum::http::Uri;
use axum::response::Response;

use super::error::{ApiError, Result};
use super::extract::{Auth, Id, JsonBody, Staff};
use super::query::Query;
use super::respond;
use super::state::AppState;
use crate::domain::query::Page;
use crate::domain::stocktake::{Count, CountInput, NewStocktake, StocktakeInput};

/// Both ids of `/store/stocktakes/{stocktakeId}/lines/{petId}`: positive integers, else 404.
pub struct LineIds(pub i64, pub i64);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for LineIds {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &S,
    ) -> Result<Self, ApiError> {
        let Path((a, b)) = Path::<(String, String)>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::not_found("there is nothing at this address"))?;
        let id = |raw: &str| {
            let canonical =
                !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit()) && !raw.starts_with('0');
            raw.parse::<i64>()
                .ok()
                .filter(|id| canonical && *id > 0)
                .ok_or_else(|| {
                    ApiError::not_found(format!(
                        "no record has the id {raw:?}; ids are positive integers"
                    ))
                })
        };
        Ok(Self(id(&a)?, id(&b)?))
    }
}

pub async fn list(
    _: Auth<Staff>,
    State(s): State<AppState>,
    uri: Uri,
    Query(page): Query<Page>,
) -> Result<Response> {
    let list = s.app.store().stocktakes().list(page).await?;
    Ok(respond::page(&uri, page, &list))
}

pub async fn create(
    _: Auth<Staff>,
    State(s): State<AppState>,
    body: JsonBody<StocktakeInput>,
) -> Result<Response> {
    let new = NewStocktake::try_from(body.value)?;
    let stocktake = s.app.store().stocktakes().create(new).await?;
    Ok(respond::created(
        format!("/store/stocktakes/{}", stocktake.id),
        &stocktake,
    ))
}

pub async fn get(_: Auth<Staff>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let stocktake = s.app.store().stocktakes().get(id).await?;
    Ok(respond::record(&stocktake))
}

pub async fn count(
    _: Auth<Staff>,
    State(s): State<AppState>,
    LineIds(id, pet_id): LineIds,
    body: JsonBody<CountInput>,
) -> Result<Response> {
    let counted = Count::try_from(body.value)?;
    let line = s
        .app
        .store()
        .stocktakes()
        .count(id, pet_id, counted)
        .await?;
    Ok(respond::record(&line))
}

pub async fn apply(auth: Auth<Staff>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let stocktake = s
        .app
        .store()
        .stocktakes()
        .apply(id, auth.key_name())
        .await?;
    Ok(respond::record(&stocktake))
}

pub async fn delete(_: Auth<Staff>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    s.app.store().stocktakes().delete(id).await?;
    Ok(respond::no_content())
}
