//! Getting data in and out: the CSV exports of pets and of the stock history, and the CSV
//! import of pets (all or nothing, with a dry run).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::Response;

use super::csv;
use super::error::{ApiError, Result};
use super::extract::{Auth, Readonly, Staff};
use super::query::{FromParams, NoParams, Params, Query};
use super::reports::DateRange;
use super::respond;
use super::state::AppState;
use crate::contract::Code;
use crate::domain::import::{self, BODY_MAX, COLUMNS};
use crate::domain::report;
use crate::domain::time;
use crate::store::export;

pub async fn pets(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    _: Query<NoParams>,
) -> Result<Response> {
    let rows = s.app.store().export().pets().await?;
    let bytes = csv::write(&COLUMNS, rows)?;
    Ok(csv::response(bytes, Some("pets.csv")))
}

pub async fn stock_changes(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    Query(range): Query<DateRange>,
) -> Result<Response> {
    let store = s.app.store();
    let tz = store.profile().get().await?.tz();
    if let (Some(from), Some(to)) = (range.from, range.to) {
        if from > to {
            return Err(ApiError::bad_request("\"from\" must not be after \"to\""));
        }
    }
    let start = range
        .from
        .map(|d| time::format(report::start_of_day(tz, d)));
    let end = range
        .to
        .and_then(|d| d.succ_opt())
        .map(|d| time::format(report::start_of_day(tz, d)));
    let rows = store.export().stock_changes(start, end).await?;
    let bytes = csv::write(&export::STOCK_CHANGE_COLUMNS, rows)?;
    Ok(csv::response(bytes, Some("stock-changes.csv")))
}

/// `?dryRun=true|false`.
pub struct ImportParams {
    pub dry_run: bool,
}

impl FromParams for ImportParams {
    const NAMES: &'static [&'static str] = &["dryRun"];
    fn from_params(params: &Params) -> Result<Self> {
        let dry_run = match params.get("dryRun") {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "query parameter \"dryRun\" must be true or false, not {other:?}"
                )))
            }
        };
        Ok(Self { dry_run })
    }
}

fn is_csv(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("text/csv"))
}

pub async fn import_pets(
    auth: Auth<Staff>,
    State(s): State<AppState>,
    headers: HeaderMap,
    Query(params): Query<ImportParams>,
    body: Bytes,
) -> Result<Response> {
    if !is_csv(&headers) {
        return Err(ApiError::new(
            Code::UnsupportedMediaType,
            "the body must be CSV (Content-Type: text/csv)",
        ));
    }
    if body.len() > BODY_MAX {
        return Err(ApiError::new(
            Code::PayloadTooLarge,
            "the CSV file is larger than 5 MiB; split it and import the parts",
        ));
    }
    let name = auth.key_name();
    let (rows, mut errors) = tokio::task::spawn_blocking(move || import::parse(&body))
        .await
        .map_err(|_| ApiError::internal())?;
    let dry_run = params.dry_run || !errors.is_empty();
    let mut summary = s.app.store().import().pets(rows, dry_run, name).await?;
    if !errors.is_empty() {
        errors.append(&mut summary.errors);
        errors.sort_by_key(|e| e.line);
        errors.truncate(import::ERRORS_MAX);
        summary.errors = errors;
    }
    if !summary.errors.is_empty() {
        let count = summary.errors.len();
        let errors = serde_json::to_value(&summary.errors).unwrap_or_default();
        return Err(ApiError::new(
            Code::ValidationFailed,
            format!(
                "the file has {count} error{}; nothing was imported",
                if count == 1 { "" } else { "s" }
            ),
        )
        .with_errors(errors));
    }
    Ok(respond::json(&summary))
}
