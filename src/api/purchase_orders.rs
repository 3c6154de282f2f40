//! `/store/purchase-orders`: what the shop orders from its suppliers, sending, receiving and
//! cancelling it (read: readonly, write: staff). One order also comes as CSV
//! (`Accept: text/csv`), to send to the supplier.

use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;

use super::csv;
use super::error::{ApiError, Result};
use super::extract::{Auth, Id, IdempotencyKey, IfMatch, JsonBody, Readonly, Staff};
use super::idempotent;
use super::query::{FromParams, Params, Query};
use super::respond;
use super::state::AppState;
use crate::domain::cell::guard;
use crate::domain::idempotency::Answer;
use crate::domain::purchase_order::{
    NewPurchaseOrder, PurchaseOrderInput, PurchaseOrderQuery, Receipt, ReceiptInput, Status,
    SuggestInput,
};
use crate::store::purchase_orders::CsvLine;

/// The columns of one order's CSV.
pub const CSV_COLUMNS: [&str; 8] = [
    "petId",
    "sku",
    "barcode",
    "name",
    "ordered",
    "received",
    "cost",
    "lineTotal",
];

fn location(id: i64) -> String {
    format!("/store/purchase-orders/{id}")
}

impl FromParams for PurchaseOrderQuery {
    const NAMES: &'static [&'static str] = &["limit", "offset", "after", "status", "supplierId"];
    fn from_params(params: &Params) -> Result<Self, ApiError> {
        let status = match params.get("status") {
            None => None,
            Some(raw) => Some(Status::parse(raw).ok_or_else(|| {
                ApiError::bad_request(
                    "query parameter \"status\" must be draft, sent, partial, received or cancelled",
                )
            })?),
        };
        Ok(Self {
            status,
            supplier_id: params.int("supplierId", 1, i64::MAX)?,
            page: params.page()?,
        })
    }
}

pub async fn list(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Query(query): Query<PurchaseOrderQuery>,
) -> Result<Response> {
    let page = query.page;
    let list = s.app.store().purchase_orders().list(query).await?;
    Ok(respond::keyed_page(&uri, page, &list, |o| o.id))
}

pub async fn create(
    _: Auth<Staff>,
    State(s): State<AppState>,
    body: JsonBody<PurchaseOrderInput>,
) -> Result<Response> {
    let new = NewPurchaseOrder::try_from(body.value)?;
    let order = s.app.store().purchase_orders().create(new).await?;
    Ok(respond::created(location(order.id), &order))
}

pub async fn suggest(
    _: Auth<Staff>,
    State(s): State<AppState>,
    body: JsonBody<SuggestInput>,
) -> Result<Response> {
    let supplier = body.value.supplier()?;
    match s.app.store().purchase_orders().suggest(supplier).await? {
        Some(order) => Ok(respond::created(location(order.id), &order)),
        None => Ok(respond::no_content()),
    }
}

pub async fn get(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    Id(id): Id,
    headers: HeaderMap,
) -> Result<Response> {
    if csv::wants_csv(&headers) {
        let lines = s.app.store().purchase_orders().csv_lines(id).await?;
        let order = s.app.store().purchase_orders().get(id).await?;
        let rows = lines.iter().map(csv_row);
        let bytes = csv::write(&CSV_COLUMNS, rows)?;
        let name = format!("purchase-order-{}.csv", order.number);
        return Ok(csv::response(bytes, Some(&name)));
    }
    let order = s.app.store().purchase_orders().get(id).await?;
    Ok(respond::record(&order))
}

/// One line of an order's CSV; text cells guarded against formula injection.
fn csv_row(l: &CsvLine) -> Vec<String> {
    let text = |t: &Option<String>| {
        t.as_deref()
            .map(|t| guard(t).into_owned())
            .unwrap_or_default()
    };
    vec![
        l.line.pet_id.to_string(),
        text(&l.sku),
        text(&l.barcode),
        text(&l.name),
        l.line.ordered.to_string(),
        l.line.received.to_string(),
        l.line.cost.to_string(),
        l.line.ordered.saturating_mul(l.line.cost).to_string(),
    ]
}

pub async fn replace(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
    body: JsonBody<PurchaseOrderInput>,
) -> Result<Response> {
    let new = NewPurchaseOrder::try_from(body.value)?;
    let order = s
        .app
        .store()
        .purchase_orders()
        .replace(id, new, pre)
        .await?;
    Ok(respond::record(&order))
}

pub async fn send(_: Auth<Staff>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let order = s.app.store().purchase_orders().send(id).await?;
    Ok(respond::record(&order))
}

pub async fn cancel(_: Auth<Staff>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let order = s.app.store().purchase_orders().cancel(id).await?;
    Ok(respond::record(&order))
}

pub async fn receive(
    auth: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IdempotencyKey(key): IdempotencyKey,
    body: JsonBody<ReceiptInput>,
) -> Result<Response> {
    let receipt = Receipt::try_from(body.value)?;
    let call = s
        .app
        .store()
        .purchase_orders()
        .receive(id, receipt, auth.key_name());
    let answer = idempotent::run(&s, &auth.caller, key, body.canonical_hash, call).await?;
    Ok(match answer {
        Answer::Fresh(order) => respond::record(&order),
        Answer::Replayed(body) => respond::replayed(200, body, |_| None),
    })
}
