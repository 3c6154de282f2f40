//! Pairing a till: `POST /admin/pairings` opens a one-time code, `GET
//! /admin/pairings/{code}/qr.svg` draws its address as a QR code, and `POST /pair` (no key)
//! trades the code for the till's own key. A wrong code is 404 and counts toward a ban of
//! the caller's address, like a refused request. Codes live in the store, so any process
//! serving it answers for a code another opened.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};
use serde::Serialize;

use super::admin;
use super::error::{ApiError, Result};
use super::extract::{Admin, Auth, JsonBody};
use super::limit;
use super::listener::Arrival;
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
    /// Whether a device on the shop's network can open `url` (false when the server listens
    /// on this PC only).
    on_network: bool,
}

/// How the request reached the server: the caller's address and whether over HTTPS.
type Arrived = (
    Option<Extension<ConnectInfo<SocketAddr>>>,
    Option<Extension<Arrival>>,
);

/// The address a device opens to use `code`, and whether a device on the network can.
///
/// An admin on another device reached the server at an address the shop's network can use:
/// that one (the request's `Host`), over the same scheme. An admin at the counter PC reached
/// it over loopback, which no till can open: then the address of a listener on the network
/// (the desktop app's LAN switch, or `--bind 0.0.0.0:…`), and when there is none, the
/// loopback address with `on_network` false. An HTTPS address carries the certificate's
/// fingerprint as `fp=`, so the till can pin it.
fn pairing_url(headers: &HeaderMap, arrived: &Arrived, s: &AppState, code: &str) -> (String, bool) {
    let from_loopback = arrived
        .0
        .as_ref()
        .is_none_or(|Extension(ConnectInfo(peer))| peer.ip().is_loopback());
    let https_here = arrived.1.as_ref().is_some_and(|Extension(a)| a.https);
    let lan = from_loopback
        .then(|| s.app.network().lan_origin())
        .flatten();
    let (origin, https, on_network) = match lan {
        Some((origin, https)) => (origin, https, true),
        None => {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_graphic()))
                .map(str::to_owned)
                .unwrap_or_else(|| s.app.settings().bind.to_string());
            let scheme = if https_here { "https" } else { "http" };
            (format!("{scheme}://{host}"), https_here, !from_loopback)
        }
    };
    let mut url = format!("{origin}/pair?code={code}");
    if let Some(tls) = https.then(|| s.app.network().tls_loaded()).flatten() {
        url.push_str("&fp=");
        url.push_str(&tls.fingerprint());
    }
    (url, on_network)
}

fn not_found() -> ApiError {
    ApiError::not_found("there is no such pairing code, or it was used or has expired")
}

pub async fn create(
    _: Auth<Admin>,
    State(s): State<AppState>,
    headers: HeaderMap,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    arrival: Option<Extension<Arrival>>,
    body: JsonBody<NewPairingInput>,
) -> Result<Response> {
    let key = NewKey::try_from(body.value)?;
    let pairing = s.app.pairings().open(key, s.app.now()).await?;
    let (url, on_network) = pairing_url(&headers, &(peer, arrival), &s, &pairing.code);
    let view = PairingView {
        url,
        on_network,
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
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    arrival: Option<Extension<Arrival>>,
    Path(code): Path<String>,
) -> Result<Response> {
    let code = normalize(&code).ok_or_else(not_found)?;
    s.app
        .pairings()
        .find(&code, s.app.now())
        .await?
        .ok_or_else(not_found)?;
    let (url, _) = pairing_url(&headers, &(peer, arrival), &s, &code);
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
    let pairing = match normalize(&typed) {
        Some(code) => match s.app.pairings().redeem(&code, s.app.now()).await {
            Ok(pairing) => pairing,
            Err(err) => return ApiError::from(err).into_response(),
        },
        None => None,
    };
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
