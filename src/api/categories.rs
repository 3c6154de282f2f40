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
use crate::store::categories;

pub async fn list(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Query(query): Query<CategoryQuery>,
) -> Result<Response> {
    let page = query.page;
    let list = s
        .app
        .store()
        .read(move |c| categories::list(c, &query))
        .await?;
    Ok(respond::page(&uri, page, &list))
}

pub async fn create(
    _: Auth<Staff>,
    State(s): State<AppState>,
    body: JsonBody<CategoryInput>,
) -> Result<Response> {
    let new = NewCategory::try_from(body.value)?;
    let category = s
        .app
        .store()
        .write(move |tx| categories::create(tx, new))
        .await?;
    Ok(respond::created(
        format!("/categories/{}", category.id),
        &category,
    ))
}

pub async fn get(_: Auth<Readonly>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let category = s
        .app
        .store()
        .read(move |c| categories::require(c, id))
        .await?;
    Ok(respond::record(&category))
}

pub async fn replace(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(if_match): IfMatch,
    body: JsonBody<CategoryInput>,
) -> Result<Response> {
    let new = NewCategory::try_from(body.value)?;
    let category = s
        .app
        .store()
        .write(move |tx| categories::replace(tx, id, new, if_match.as_deref()))
        .await?;
    Ok(respond::record(&category))
}

pub async fn patch(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(if_match): IfMatch,
    body: JsonBody<CategoryPatchInput>,
) -> Result<Response> {
    let patch = CategoryPatch::try_from(body.value)?;
    let category = s
        .app
        .store()
        .write(move |tx| categories::patch(tx, id, patch, if_match.as_deref()))
        .await?;
    Ok(respond::record(&category))
}

pub async fn delete(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(if_match): IfMatch,
) -> Result<Response> {
    s.app
        .store()
        .write(move |tx| categories::delete(tx, id, if_match.as_deref()))
        .await?;
    Ok(respond::no_content())
}
