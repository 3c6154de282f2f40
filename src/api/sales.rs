//! `/store/sales`: selling a basket at the counter, reading sales back, printing their
//! receipts (HTML, or plain text with `Accept: text/plain`), and refunding them (and listing
//! a sale's refunds).
//! Readonly and pos keys see a sale's customer without `phone` and `email`.

use axum::extract::State;
use axum::http::{header, HeaderMap, Uri};
use axum::response::{IntoResponse, Response};
use chrono::Utc;

use super::error::{ApiError, Result};
use super::extract::{Auth, Id, IdempotencyKey, JsonBody, Pos, Readonly, Staff};
use super::idempotent;
use super::query::{FromParams, Params, Query};
use super::reports::date_param;
use super::respond;
use super::state::AppState;
use crate::auth::Caller;
use crate::domain::idempotency::Answer;
use crate::domain::key::Role;
use crate::domain::payment::Method;
use crate::domain::query::SaleQuery;
use crate::domain::refund::{NewRefund, RefundInput};
use crate::domain::sale::{NewSale, Received, SaleInput, TILL};
use crate::domain::sale_record::Sale;
use crate::domain::{receipt, receipt_html};

fn location(id: i64) -> String {
    format!("/store/sales/{id}")
}

/// Whether `caller` may see a customer's phone and email.
fn sees_contact(caller: &Caller) -> bool {
    caller.may(Role::Staff)
}

fn shown(caller: &Caller, sale: Sale) -> Sale {
    if sees_contact(caller) {
        sale
    } else {
        sale.without_contact()
    }
}

impl FromParams for SaleQuery {
    const NAMES: &'static [&'static str] = &[
        "limit", "offset", "after", "from", "to", "till", "staffId", "method",
    ];
    fn from_params(params: &Params) -> Result<Self, ApiError> {
        let from = date_param(params, "from")?;
        let to = date_param(params, "to")?;
        if let (Some(from), Some(to)) = (from, to) {
            if from > to {
                return Err(ApiError::bad_request(
                    "query parameter \"from\" must not be after \"to\"",
                ));
            }
        }
        let till = params.bounded("till", TILL)?;
        let method = match params.get("method") {
            None => None,
            Some(raw) => Some(Method::parse("method", raw).map_err(|_| {
                ApiError::bad_request("query parameter \"method\" must be cash, card or other")
            })?),
        };
        Ok(Self {
            from,
            to,
            till,
            staff_id: params.int("staffId", 1, i64::MAX)?,
            method,
            page: params.page()?,
        })
    }
}

pub async fn list(
    auth: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Query(query): Query<SaleQuery>,
) -> Result<Response> {
    let page = query.page;
    let mut list = s.app.store().sales().list(query).await?;
    if !sees_contact(&auth.caller) {
        list.items = list.items.into_iter().map(Sale::without_contact).collect();
    }
    Ok(respond::keyed_page(&uri, page, &list, |sale| sale.id))
}

pub async fn place(
    auth: Auth<Pos>,
    State(s): State<AppState>,
    IdempotencyKey(key): IdempotencyKey,
    body: JsonBody<SaleInput>,
) -> Result<Response> {
    let new = NewSale::try_from(Received {
        body: body.value,
        at: Utc::now(),
    })?;
    let contact = sees_contact(&auth.caller);
    let call = s.app.store().sales().place(new, auth.key_name(), contact);
    let answer = idempotent::run(&s, &auth.caller, key, body.canonical_hash, call).await?;
    Ok(match answer {
        Answer::Fresh(sale) => respond::created(location(sale.id), &sale),
        Answer::Replayed(body) => respond::replayed(201, body, |v| {
            v.get("id")
                .and_then(serde_json::Value::as_i64)
                .map(location)
        }),
    })
}

pub async fn get(auth: Auth<Readonly>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let sale = s.app.store().sales().get(id).await?;
    Ok(respond::record(&shown(&auth.caller, sale)))
}

pub async fn refund(
    auth: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IdempotencyKey(key): IdempotencyKey,
    body: JsonBody<RefundInput>,
) -> Result<Response> {
    let new = NewRefund::try_from(body.value)?;
    let call = s.app.store().refunds().create(id, new, auth.key_name());
    let answer = idempotent::run(&s, &auth.caller, key, body.canonical_hash, call).await?;
    let refunds = format!("{}/refunds", location(id));
    Ok(match answer {
        Answer::Fresh(refund) => respond::created(refunds, &refund),
        Answer::Replayed(body) => respond::replayed(201, body, |_| Some(refunds.clone())),
    })
}

/// A sale's refunds, oldest first: what a refund dialog needs to know of what is left.
pub async fn refunds(_: Auth<Readonly>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    let refunds = s.app.store().refunds().of_sale(id).await?;
    Ok(respond::json(&refunds))
}

/// Whether the client asked for the plain-text receipt: `text/plain` named in `Accept`
/// before `text/html` (or without it).
fn wants_plain(headers: &HeaderMap) -> bool {
    let first = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|media| media.split(';').next())
        .map(|m| m.trim().to_ascii_lowercase())
        .find(|m| m == "text/plain" || m == "text/html");
    first.as_deref() == Some("text/plain")
}

pub async fn receipt(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    Id(id): Id,
    headers: HeaderMap,
) -> Result<Response> {
    let receipt = s.app.store().receipts().get(id).await?;
    let (content_type, body) = if wants_plain(&headers) {
        ("text/plain; charset=utf-8", receipt::to_text(&receipt))
    } else {
        ("text/html; charset=utf-8", receipt_html::to_html(&receipt))
    };
    Ok((
        [
            (header::CONTENT_TYPE, content_type),
            (header::VARY, "Accept"),
        ],
        body,
    )
        .into_response())
}
