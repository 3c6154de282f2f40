//! `/store/reports/animals`: each individual animal sold in a period with its record, its
//! sale and its buyer; JSON, or CSV with `Accept: text/csv`.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::csv;
use super::error::{ApiError, Result};
use super::extract::{Auth, Staff};
use super::query::Query;
use super::reports::DateRange;
use super::respond;
use super::state::AppState;
use crate::domain::animal_report::CSV_HEADER;

pub async fn animals(
    _: Auth<Staff>,
    State(s): State<AppState>,
    headers: HeaderMap,
    Query(asked): Query<DateRange>,
) -> Result<Response> {
    let (range, sold) = s
        .app
        .store()
        .animal_report()
        .sold(asked.from, asked.to)
        .await?
        .map_err(ApiError::bad_request)?;
    if csv::wants_csv(&headers) {
        let bytes = csv::write(&CSV_HEADER, sold.iter().map(|row| row.cells()))?;
        let name = format!("animals-{}-{}.csv", range.from, range.to);
        return Ok(csv::response(bytes, Some(&name)));
    }
    Ok(respond::json(&sold))
}
