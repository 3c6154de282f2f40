//! `/store/inventory`: stock counts, adjustments and the stock history.

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;

use super::error::Result;
use super::extract::{Auth, Id, IdempotencyKey, IfMatch, JsonBody, Readonly, Staff};
use super::idempotent;
use super::query::Query;
use super::respond;
use super::state::AppState;
use crate::domain::idempotency::Answer;
use crate::domain::inventory::{
    Adjustment, AdjustmentInput, InventoryPatch, InventoryPatchInput, InventoryUpdate,
    InventoryUpdateInput,
};
use crate::domain::query::{InventoryQuery, Page};

pub async fn list(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Query(query): Query<InventoryQuery>,
) -> Result<Response> {
    let page = query.page;
    let list = s.app.store().inventory().list(query).await?;
    Ok(respond::keyed_page(&uri, page, &list, |i| i.pet_id))
}

pub async fn get(_: Auth<Readonly>, State(s): State<AppState>, Id(pet_id): Id) -> Result<Response> {
    let item = s.app.store().inventory().get(pet_id).await?;
    Ok(respond::record(&item))
}

pub async fn set(
    auth: Auth<Staff>,
    State(s): State<AppState>,
    Id(pet_id): Id,
    IfMatch(pre): IfMatch,
    body: JsonBody<InventoryUpdateInput>,
) -> Result<Response> {
    let update = InventoryUpdate::try_from(body.value)?;
    let by = auth.key_name();
    let item = s
        .app
        .store()
        .inventory()
        .set(pet_id, update, by, pre)
        .await?;
    Ok(respond::record(&item))
}

pub async fn patch(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(pet_id): Id,
    IfMatch(pre): IfMatch,
    body: JsonBody<InventoryPatchInput>,
) -> Result<Response> {
    let patch = InventoryPatch::try_from(body.value)?;
    let item = s.app.store().inventory().patch(pet_id, patch, pre).await?;
    Ok(respond::record(&item))
}

pub async fn adjust(
    auth: Auth<Staff>,
    State(s): State<AppState>,
    Id(pet_id): Id,
    IdempotencyKey(key): IdempotencyKey,
    body: JsonBody<AdjustmentInput>,
) -> Result<Response> {
    let adjustment = Adjustment::try_from(body.value)?;
    let by = auth.key_name();
    // The pet is part of what is replayed: the same key and body for another pet is another request.
    let hash = format!("{pet_id}:{}", body.canonical_hash);
    let call = s.app.store().inventory().adjust(pet_id, adjustment, by);
    let answer = idempotent::run(&s, &auth.caller, key, hash, call).await?;
    Ok(match answer {
        Answer::Fresh(item) => respond::record(&item),
        Answer::Replayed(body) => respond::replayed(200, body, |_| None),
    })
}

pub async fn history(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Id(pet_id): Id,
    Query(page): Query<Page>,
) -> Result<Response> {
    let list = s.app.store().inventory().history(pet_id, page).await?;
    Ok(respond::page(&uri, page, &list))
}
