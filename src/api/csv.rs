//! CSV answers: RFC 4180 (CRLF line ends, quotes where needed) in UTF-8, with a header row,
//! and the `Accept: text/csv` test that picks them over JSON.

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// The media type of CSV answers.
pub const CSV_TYPE: &str = "text/csv; charset=utf-8";

/// Whether the client asked for CSV (`Accept: text/csv`).
pub fn wants_csv(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|media| {
            media
                .split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("text/csv"))
        })
}

/// Writes `header` and `rows` as CSV.
pub fn write<I, R>(header: &[&str], rows: I) -> Result<Vec<u8>, ApiError>
where
    I: IntoIterator<Item = R>,
    R: IntoIterator,
    R::Item: AsRef<[u8]>,
{
    let mut out = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    let failed = |err: csv::Error| {
        tracing::error!(%err, "writing CSV failed");
        ApiError::internal()
    };
    out.write_record(header).map_err(failed)?;
    for row in rows {
        out.write_record(row).map_err(failed)?;
    }
    out.into_inner().map_err(|err| {
        tracing::error!(%err, "writing CSV failed");
        ApiError::internal()
    })
}

/// A 200 CSV answer; `filename` names the download.
pub fn response(bytes: Vec<u8>, filename: Option<&str>) -> Response {
    let mut response = (
        StatusCode::OK,
        [(header::CONTENT_TYPE, HeaderValue::from_static(CSV_TYPE))],
        bytes,
    )
        .into_response();
    if let Some(value) =
        filename.and_then(|f| HeaderValue::from_str(&format!("attachment; filename=\"{f}\"")).ok())
    {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, value);
    }
    response
}
