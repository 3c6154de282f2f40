//! Pairing a till: `POST /admin/pairings` opens a one-time code, `GET
//! /admin/pairings/{code}/qr.svg` draws its address as a QR code, and `POST /pair` (no key)
//! trades the code for the till's own key. A wrong code is 404 and counts toward a ban of
//! the caller's address, like a refused request.

use std::net::IpAddr;

use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};
use serde::Serialize;

use super::admin;
use super::error::{ApiError, Result};
use super::extract::{Admin, Auth, JsonBody};
use super::limit;
use super::respond;
use super::state::AppState;
use crate::domain::key::NewKey;
use crate::domain::pairing::{normalize, NewPairingInput, PairInput};
use crate::domain::time;
use crate::limits::{client_net, Subject};

/// A code just opened.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PairingView {
    code: String,
    expires_at: String,
    url: String,
}

/// The address a device opens to use `code`: the one the admin reached this server at.
fn pairing_url(headers: &HeaderMap, s: &AppState, code: &str) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_graphic()))
        .map(str::to_owned)
        .unwrap_or_else(|| s.app.settings().bind.to_string());
    format!("http://{host}/pair?code={code}")
}

fn not_found() -> ApiError {
    ApiError::not_found("there is no such pairing code, or it was used or has expired")
}

pub async fn create(
    _: Auth<Admin>,
    State(s): State<AppState>,
    headers: HeaderMap,
    body: JsonBody<NewPairingInput>,
) -> Result<Response> {
    let key = NewKey::try_from(body.value)?;
    let pairing = s.app.pairings().open(key, s.app.now());
    let view = PairingView {
        url: pairing_url(&headers, &s, &pairing.code),
        expires_at: chrono::DateTime::from_timestamp(pairing.expires_at, 0)
            .map(time::format)
            .unwrap_or_default(),
        code: pairing.code,
    };
    Ok(respond::created(
        format!("/admin/pairings/{}/qr.svg", view.code),
        &view,
    ))
}

pub async fn qr(
    _: Auth<Admin>,
    State(s): State<AppState>,
    headers: HeaderMap,
    Path(code): Path<String>,
) -> Result<Response> {
    let code = normalize(&code).ok_or_else(not_found)?;
    s.app
        .pairings()
        .find(&code, s.app.now())
        .ok_or_else(not_found)?;
    let url = pairing_url(&headers, &s, &code);
    let qr = QrCode::with_error_correction_level(url.as_bytes(), EcLevel::M)
        .map_err(|_| ApiError::internal())?;
    let image = qr
        .render::<svg::Color>()
        .min_dimensions(256, 256)
        .quiet_zone(true)
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .build();
    let mut response = (StatusCode::OK, image).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `POST /pair`: counted against the caller's address, then the code is checked.
pub async fn pair(State(s): State<AppState>, req: Request) -> Response {
    limit::keyless(&s, req, |input: PairInput, addr| answer(&s, input, addr)).await
}

async fn answer(s: &AppState, input: PairInput, addr: IpAddr) -> Response {
    let Some(typed) = input.code else {
        return ApiError::from(crate::domain::DomainError::invalid("code", "is required"))
            .into_response();
    };
    let pairing = normalize(&typed).and_then(|code| s.app.pairings().redeem(&code, s.app.now()));
    let Some(pairing) = pairing else {
        s.app
            .limiter()
            .record_refusal(&Subject::Addr(client_net(addr)));
        return not_found().into_response();
    };
    match s.app.keys().create(pairing.key).await {
        Ok((record, secret)) => admin::created(&s.app, record, secret),
        Err(err) => ApiError::from(err).into_response(),
    }
}
