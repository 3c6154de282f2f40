//! `/store/orders`: placing, completing and cancelling orders; `/store/cancelled-orders`
//! (beta): the orders cancelled, for the record.

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;

use super::error::Result;
use super::extract::{Auth, Id, IdempotencyKey, IfMatch, JsonBody, Pos, Readonly};
use super::idempotent;
use super::query::Query;
use super::respond;
use super::state::AppState;
use crate::domain::idempotency::Answer;
use crate::domain::order::{NewOrder, OrderInput, OrderPatch, OrderPatchInput};
use crate::domain::query::{OrderQuery, Page};

fn location(id: i64) -> String {
    format!("/store/orders/{id}")
}

pub async fn list(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Query(query): Query<OrderQuery>,
) -> Result<Response> {
    let page = query.page;
    let list = s.app.store().orders().list(query).await?;
    Ok(respond::keyed_page(&uri, page, &list, |o| o.id))
}

/// `GET /store/cancelled-orders`: newest first.
pub async fn cancelled(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Query(page): Query<Page>,
) -> Result<Response> {
    let list = s.app.store().orders().cancelled(page).await?;
    Ok(respond::page(&uri, page, &list))
}

pub async fn place(
    auth: Auth<Pos>,
    State(s): State<AppState>,
    IdempotencyKey(key): IdempotencyKey,
    body: JsonBody<OrderInput>,
) -> Result<Response> {
    let new = NewOrder::try_from(body.value)?;
    let call = s.app.store().orders().place(new, auth.key_name());
    let answer = idempotent::run(&s, &auth.caller, key, body.canonical_hash, call).await?;
    Ok(match answer {
        Answer::Fresh(order) => respond::created(location(order.id), &order),
        Answer::Replayed(body) => respond::replayed(201, body, |v| {
            v.get("id")
                .and_then(serde_json::Value::as_i64)
                .map(location)
        }),
    })
}

pub async fn get(_: Auth<Readonly>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let order = s.app.store().orders().get(id).await?;
    Ok(respond::record(&order))
}

pub async fn patch(
    _: Auth<Pos>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
    body: JsonBody<OrderPatchInput>,
) -> Result<Response> {
    let patch = OrderPatch::try_from(body.value)?;
    let order = s.app.store().orders().update(id, patch, pre).await?;
    Ok(respond::record(&order))
}

pub async fn cancel(
    auth: Auth<Pos>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
) -> Result<Response> {
    s.app
        .store()
        .orders()
        .cancel(id, pre, auth.key_name())
        .await?;
    Ok(respond::no_content())
}
