//! `GET /store/labels.svg?ids=1,2,3&copies=N`: a sheet of shelf labels for the listed pets,
//! as one SVG of A4 pages. A malformed or out-of-bounds query is 400, an id that names no
//! pet 422 `unknown_pet`, a pet with neither a barcode nor a sku 422 `validation_failed`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use axum::extract::State;

use super::error::{ApiError, Result};
use super::extract::{Auth, Readonly};
use super::query::{positive_ids, FromParams, Params, Query};
use super::state::AppState;
use crate::domain::label::{self, LabelRequest};
use crate::domain::label_sheet;

impl FromParams for LabelRequest {
    const NAMES: &'static [&'static str] = &["ids", "copies"];
    fn from_params(params: &Params) -> Result<Self> {
        let raw = params
            .get("ids")
            .ok_or_else(|| ApiError::bad_request("query parameter \"ids\" is required"))?;
        let ids = positive_ids(raw)?;
        let copies = match params.get("copies") {
            None => 1,
            Some(raw) => raw.trim().parse::<i64>().map_err(|_| {
                ApiError::bad_request(format!(
                    "query parameter \"copies\" must be an integer, not {raw:?}"
                ))
            })?,
        };
        LabelRequest::new(ids, copies)
            .map_err(|e| ApiError::bad_request(format!("query parameter {e}")))
    }
}

pub async fn sheet(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    Query(request): Query<LabelRequest>,
) -> Result<Response> {
    let store = s.app.store();
    let pets = store.pets().among(request.ids.clone()).await?;
    let currency = store.profile().get().await?.currency;
    let labels = label::labels(&request, &pets, &currency)?;
    let svg = label_sheet::draw(&labels, request.copies);
    let mut response = (StatusCode::OK, svg).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml; charset=utf-8"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
