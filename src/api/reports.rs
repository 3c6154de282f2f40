//! `/store/reports/daily`: the daily report as JSON, or as CSV with `Accept: text/csv`.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use chrono::NaiveDate;

use super::csv;
use super::error::{ApiError, Result};
use super::extract::{Auth, Readonly};
use super::query::{FromParams, Params, Query};
use super::respond;
use super::state::AppState;
use crate::domain::report::{self, Range, CSV_HEADER};

/// `from` and `to` as asked (dates of the store's time zone).
pub struct DateRange {
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
}

/// A `YYYY-MM-DD` query parameter; left out or empty, the default. A value of white space
/// only is neither empty nor a date.
pub fn date_param(params: &Params, name: &str) -> Result<Option<NaiveDate>> {
    match params.get(name).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(raw) => report::parse_date(raw).map(Some).ok_or_else(|| {
            ApiError::bad_request(format!(
                "query parameter {name:?} must be a date as YYYY-MM-DD, not {raw:?}"
            ))
        }),
    }
}

impl FromParams for DateRange {
    const NAMES: &'static [&'static str] = &["from", "to"];
    fn from_params(params: &Params) -> Result<Self> {
        Ok(Self {
            from: date_param(params, "from")?,
            to: date_param(params, "to")?,
        })
    }
}

pub async fn daily(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    headers: HeaderMap,
    Query(asked): Query<DateRange>,
) -> Result<Response> {
    let store = s.app.store();
    let tz = store.profile().get().await?.tz();
    let range =
        Range::new(asked.from, asked.to, report::today(tz)).map_err(ApiError::bad_request)?;
    let days = store.reports().daily(range).await?;
    if csv::wants_csv(&headers) {
        let bytes = csv::write(&CSV_HEADER, days.iter().map(|d| d.cells()))?;
        let name = format!("daily-{}-{}.csv", range.from, range.to);
        return Ok(csv::response(bytes, Some(&name)));
    }
    Ok(respond::json(&days))
}
