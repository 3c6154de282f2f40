//! The benchmark's ceiling: a bare axum server that answers the routes `bench/run.py` drives
//! with fixed bytes, shaped and sized like petstore's own answers, and does nothing else.
//!
//! No store, no auth, no rate limits, no parsing beyond reading the request body: what it
//! reaches on this machine with the same load generator is the most any server on the same
//! runtime could reach, so petstore's figures are reported as a ratio to it.
//!
//! Routes: `GET /health`; `GET /pets` (a query holding `ids=` gets one pet, any other query a
//! page of 50); `POST /pets`, `POST /store/orders` and `POST /store/sales` (201 with
//! `Location`).
//! Usage: `petstore-ceiling [--bind 127.0.0.1:0]`; prints `listening on http://ADDR`.

use axum::{
    body::Bytes,
    extract::{RawQuery, State},
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Router,
};
use std::{error::Error, net::SocketAddr, sync::Arc};

/// The fixed answers, built once at start.
struct Answers {
    one_pet: Bytes,
    page: Bytes,
    created_pet: Bytes,
    created_order: Bytes,
    created_sale: Bytes,
}

/// A pet as petstore shows it: `{id, name, categoryId, status, price}`, named and priced as
/// `bench/run.py` seeds.
fn pet(id: u64) -> String {
    format!(
        r#"{{"id":{id},"name":"pet-{id:04}","categoryId":{},"status":"available","price":500}}"#,
        id % 5 + 1
    )
}

/// A 3-line sale as petstore answers it, paid in cash with change.
fn sale() -> String {
    let lines: Vec<String> = (0..3)
        .map(|n| {
            format!(
                r#"{{"petId":{id},"name":"pet-{id:04}","sku":null,"barcode":null,"quantity":1,"unitPrice":500,"discount":0,"taxRate":0,"tax":0,"total":500,"orderId":{}}}"#,
                100_001 + n,
                id = 500 + n
            )
        })
        .collect();
    format!(
        r#"{{"id":1,"number":1,"placedAt":"2026-01-01T12:00:00.000Z","soldAt":"2026-01-01T12:00:00.000Z","keyName":"bench","staffId":null,"till":null,"lines":[{}],"subtotal":1500,"discount":0,"tax":0,"total":1500,"payments":[{{"method":"cash","amount":2000}}],"change":500,"note":null,"refunded":0}}"#,
        lines.join(",")
    )
}

impl Answers {
    fn new() -> Self {
        let page: Vec<String> = (1..=50).map(pet).collect();
        Answers {
            one_pet: Bytes::from(format!("[{}]", pet(500))),
            page: Bytes::from(format!("[{}]", page.join(","))),
            created_pet: Bytes::from(
                r#"{"id":1001,"name":"bench-1-1","categoryId":3,"status":"available"}"#,
            ),
            created_order: Bytes::from(
                r#"{"id":100001,"petId":500,"quantity":1,"complete":false}"#,
            ),
            created_sale: Bytes::from(sale()),
        }
    }
}

const JSON: HeaderValue = HeaderValue::from_static("application/json");

async fn health() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, JSON)], r#"{"status":"ok"}"#)
}

async fn list_pets(State(answers): State<Arc<Answers>>, RawQuery(query): RawQuery) -> Response {
    let by_ids = query.as_deref().is_some_and(|q| q.contains("ids="));
    if by_ids {
        let headers = [
            (header::CONTENT_TYPE, JSON),
            (
                header::HeaderName::from_static("x-total-count"),
                HeaderValue::from_static("1"),
            ),
        ];
        (headers, answers.one_pet.clone()).into_response()
    } else {
        let headers = [
            (header::CONTENT_TYPE, JSON),
            (
                header::HeaderName::from_static("x-total-count"),
                HeaderValue::from_static("1000"),
            ),
            (
                header::LINK,
                HeaderValue::from_static(r#"</pets?limit=50&offset=50>; rel="next""#),
            ),
        ];
        (headers, answers.page.clone()).into_response()
    }
}

/// A 201 with `Location`; the body is read in full, as a real handler would.
fn created(location: &'static str, body: Bytes) -> Response {
    let headers = [
        (header::CONTENT_TYPE, JSON),
        (header::LOCATION, HeaderValue::from_static(location)),
        (
            header::ETAG,
            HeaderValue::from_static("\"6f1d3c0e2b9a4d57a1c2e3f4\""),
        ),
    ];
    (StatusCode::CREATED, headers, body).into_response()
}

async fn create_pet(State(answers): State<Arc<Answers>>, _body: Bytes) -> Response {
    created("/pets/1001", answers.created_pet.clone())
}

async fn place_order(State(answers): State<Arc<Answers>>, _body: Bytes) -> Response {
    created("/store/orders/100001", answers.created_order.clone())
}

async fn place_sale(State(answers): State<Arc<Answers>>, _body: Bytes) -> Response {
    created("/store/sales/1", answers.created_sale.clone())
}

fn bind_addr() -> Result<SocketAddr, Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let mut bind = "127.0.0.1:0".to_string();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bind" => bind = args.next().ok_or("--bind needs an address")?,
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: petstore-ceiling [--bind ADDR]"
                )
                .into())
            }
        }
    }
    Ok(bind.parse()?)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let app = Router::new()
        .route("/health", get(health))
        .route("/pets", get(list_pets).post(create_pet))
        .route("/store/orders", post(place_order))
        .route("/store/sales", post(place_sale))
        .with_state(Arc::new(Answers::new()));
    let listener = tokio::net::TcpListener::bind(bind_addr()?).await?;
    println!("listening on http://{}", listener.local_addr()?);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
