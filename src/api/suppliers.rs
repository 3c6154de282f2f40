//! `/store/suppliers`: the wholesalers the shop buys from (read: readonly, write: staff).

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;

use super::error::Result;
use super::extract::{Auth, Id, IfMatch, JsonBody, Readonly, Staff};
use super::query::Query;
use super::respond;
use super::state::AppState;
use crate::domain::query::CategoryQuery;
use crate::domain::supplier::{NewSupplier, SupplierInput, SupplierPatch, SupplierPatchInput};

pub async fn list(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Query(query): Query<CategoryQuery>,
) -> Result<Response> {
    let page = query.page;
    let list = s.app.store().suppliers().list(query).await?;
    Ok(respond::keyed_page(&uri, page, &list, |c| c.id))
}

pub async fn create(
    _: Auth<Staff>,
    State(s): State<AppState>,
    body: JsonBody<SupplierInput>,
) -> Result<Response> {
    let new = NewSupplier::try_from(body.value)?;
    let supplier = s.app.store().suppliers().create(new).await?;
    Ok(respond::created(
        format!("/store/suppliers/{}", supplier.id),
        &supplier,
    ))
}

pub async fn get(_: Auth<Readonly>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let supplier = s.app.store().suppliers().get(id).await?;
    Ok(respond::record(&supplier))
}

pub async fn patch(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
    body: JsonBody<SupplierPatchInput>,
) -> Result<Response> {
    let patch = SupplierPatch::try_from(body.value)?;
    let supplier = s.app.store().suppliers().patch(id, patch, pre).await?;
    Ok(respond::record(&supplier))
}

pub async fn delete(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
) -> Result<Response> {
    s.app.store().suppliers().delete(id, pre).await?;
    Ok(respond::no_content())
}
