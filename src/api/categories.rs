//! `/categories`: the kinds of animal the shop sells.

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;

use super::error::Result;
use super::extract::{Auth, Id, IfMatch, JsonBody, Readonly, Staff};
use super::query::Query;
use super::respond;
use super::state::AppState;
use crate::domain::category::{CategoryInput, CategoryPatch, CategoryPatchInput, NewCategory};
use crate::domain::query::CategoryQuery;

pub async fn list(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Query(query): Query<CategoryQuery>,
) -> Result<Response> {
    let page = query.page;
    let list = s.app.store().categories().list(query).await?;
    Ok(respond::keyed_page(&uri, page, &list, |c| c.id))
}

pub async fn create(
    _: Auth<Staff>,
    State(s): State<AppState>,
    body: JsonBody<CategoryInput>,
) -> Result<Response> {
    let new = NewCategory::try_from(body.value)?;
    let category = s.app.store().categories().create(new).await?;
    Ok(respond::created(
        format!("/categories/{}", category.id),
        &category,
    ))
}

pub async fn get(_: Auth<Readonly>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let category = s.app.store().categories().get(id).await?;
    Ok(respond::record(&category))
}

pub async fn replace(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
    body: JsonBody<CategoryInput>,
) -> Result<Response> {
    let new = NewCategory::try_from(body.value)?;
    let category = s.app.store().categories().replace(id, new, pre).await?;
    Ok(respond::record(&category))
}

pub async fn patch(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
    body: JsonBody<CategoryPatchInput>,
) -> Result<Response> {
    let patch = CategoryPatch::try_from(body.value)?;
    let category = s.app.store().categories().patch(id, patch, pre).await?;
    Ok(respond::record(&category))
}

pub async fn delete(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
) -> Result<Response> {
    s.app.store().categories().delete(id, pre).await?;
    Ok(respond::no_content())
}
