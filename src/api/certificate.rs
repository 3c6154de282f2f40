//! `GET /store/certificate`: whether this server speaks HTTPS, and the SHA-256 fingerprint of
//! the store's own certificate, so staff can compare it with what a browser or a till shows.

use axum::extract::State;
use axum::response::Response;
use serde::Serialize;

use super::error::Result;
use super::extract::{Auth, Readonly};
use super::query::{NoParams, Query};
use super::respond;
use super::state::AppState;
use crate::domain::time;

/// What the store tells about its certificate.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CertificateView {
    /// Whether one of this server's listeners speaks HTTPS.
    https: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    fingerprint: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    not_after: Option<String>,
}

pub async fn get(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    _: Query<NoParams>,
) -> Result<Response> {
    let network = s.app.network();
    let tls = network.tls_loaded().filter(|_| network.serves_https());
    Ok(respond::json(&CertificateView {
        https: tls.is_some(),
        fingerprint: tls.as_ref().map(|t| t.fingerprint()),
        not_after: tls.as_ref().map(|t| time::format(t.not_after())),
    }))
}
