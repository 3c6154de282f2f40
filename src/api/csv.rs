//! CSV answers: RFC 4180 (CRLF line ends, quotes where needed) in UTF-8, with a header row,
//! and the `Accept: text/csv` test that picks them over JSON. Large files are answered as a
//! stream of chunks ([`stream_response`]) so they are never held whole in memory.

use axum::body::{Body, Bytes};
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
    let mut out = writer();
    out.write_record(header).map_err(failed)?;
    finish(out, rows)
}

/// Rows as CSV lines, without a header: one chunk of a streamed file.
pub fn lines<I, R>(rows: I) -> Result<Vec<u8>, ApiError>
where
    I: IntoIterator<Item = R>,
    R: IntoIterator,
    R::Item: AsRef<[u8]>,
{
    finish(writer(), rows)
}

/// A CSV writer into memory, its lines ended by CRLF.
fn writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new())
}

/// Writes `rows` after what `out` holds and hands back its bytes.
fn finish<I, R>(mut out: csv::Writer<Vec<u8>>, rows: I) -> Result<Vec<u8>, ApiError>
where
    I: IntoIterator<Item = R>,
    R: IntoIterator,
    R::Item: AsRef<[u8]>,
{
    for row in rows {
        out.write_record(row).map_err(failed)?;
    }
    out.into_inner().map_err(failed)
}

/// Logs why writing failed; the client gets a plain 500.
fn failed(err: impl std::fmt::Display) -> ApiError {
    tracing::error!(%err, "writing CSV failed");
    ApiError::internal()
}

/// A 200 CSV answer; `filename` names the download.
pub fn response(bytes: Vec<u8>, filename: Option<&str>) -> Response {
    with_type((StatusCode::OK, bytes).into_response(), filename)
}

/// A 200 CSV answer sent as the stream yields its chunks; a stream that ends in an error
/// breaks the connection, so a client never takes a cut-off file for a whole one.
pub fn stream_response<S>(chunks: S, filename: Option<&str>) -> Response
where
    S: futures_util::Stream<Item = std::result::Result<Bytes, std::io::Error>> + Send + 'static,
{
    with_type(
        (StatusCode::OK, Body::from_stream(chunks)).into_response(),
        filename,
    )
}

fn with_type(mut response: Response, filename: Option<&str>) -> Response {
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(CSV_TYPE));
    if let Some(value) =
        filename.and_then(|f| HeaderValue::from_str(&format!("attachment; filename=\"{f}\"")).ok())
    {
        response
            .headers_mut()
            .insert(header::CONTENT_DISPOSITION, value);
    }
    response
}
