//! Building successful answers: single records with their `ETag`, created records with
//! `Location`, and list pages with `X-Total-Count` and an RFC 8288 `Link`.

use axum::body::Bytes;
use axum::http::{header, HeaderName, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::domain::etag;
use crate::domain::query::{Page, Paged};

fn json_response<T: Serialize>(status: StatusCode, value: &T) -> Response {
    json_bytes(
        status,
        Bytes::from(serde_json::to_vec(value).unwrap_or_default()),
    )
}

fn json_bytes(status: StatusCode, body: Bytes) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// A JSON answer, 200, without an `ETag` (a computed view such as a report).
pub fn json<T: Serialize>(value: &T) -> Response {
    json_response(StatusCode::OK, value)
}

/// A JSON answer, 200, from JSON made earlier.
pub fn json_body(body: Bytes) -> Response {
    json_bytes(StatusCode::OK, body)
}

/// A single record, 200, with its `ETag`.
pub fn record<T: Serialize>(value: &T) -> Response {
    tagged(StatusCode::OK, value)
}

/// A created record, 201, with `Location` and `ETag`.
pub fn created<T: Serialize>(location: String, value: &T) -> Response {
    let mut response = tagged(StatusCode::CREATED, value);
    if let Ok(location) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response
}

/// An answer recorded earlier for the same `Idempotency-Key`, replayed byte for byte.
pub fn replayed(
    status: u16,
    body: String,
    location: impl FnOnce(&serde_json::Value) -> Option<String>,
) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    let tag = etag::of_bytes(body.as_bytes());
    let location = if status == StatusCode::CREATED {
        serde_json::from_str(&body).ok().and_then(|v| location(&v))
    } else {
        None
    };
    let mut response = (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response();
    let headers = response.headers_mut();
    if let Ok(tag) = HeaderValue::from_str(&tag) {
        headers.insert(header::ETAG, tag);
    }
    if let Some(location) = location.and_then(|l| HeaderValue::from_str(&l).ok()) {
        headers.insert(header::LOCATION, location);
    }
    headers.insert(
        HeaderName::from_static("idempotent-replayed"),
        HeaderValue::from_static("true"),
    );
    response
}

/// 204 with no body.
pub fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

/// A record's JSON answer with its `ETag`, the tag taken from the very bytes sent (the
/// record is encoded once).
fn tagged<T: Serialize>(status: StatusCode, value: &T) -> Response {
    let body = serde_json::to_vec(value).unwrap_or_default();
    let tag = etag::of_bytes(&body);
    let mut response = json_bytes(status, Bytes::from(body));
    if let Ok(tag) = HeaderValue::from_str(&tag) {
        response.headers_mut().insert(header::ETAG, tag);
    }
    response
}

/// One page of a list: a JSON array, `X-Total-Count`, and `Link` to the next and previous
/// pages where there are some.
pub fn page<T: Serialize>(uri: &Uri, page: Page, list: &Paged<T>) -> Response {
    offset_page(uri, page, list, json_of(&list.items))
}

/// A page of a short list the server holds whole (keys, staff members, backups): the records
/// from `page`'s offset, at most its limit, each as `view` shows it, with the whole list's
/// length as the total.
pub fn page_of_all<T, V: Serialize>(
    uri: &Uri,
    page: Page,
    all: Vec<T>,
    view: impl FnMut(T) -> V,
) -> Response {
    let total = all.len() as i64;
    let items: Vec<V> = all
        .into_iter()
        .skip(usize::try_from(page.offset).unwrap_or(usize::MAX))
        .take(usize::try_from(page.limit).unwrap_or(0))
        .map(view)
        .collect();
    self::page(uri, page, &Paged { items, total })
}

/// The JSON of a list's records.
pub fn json_of<T: Serialize>(items: &[T]) -> Bytes {
    Bytes::from(serde_json::to_vec(items).unwrap_or_default())
}

fn offset_page<T>(uri: &Uri, page: Page, list: &Paged<T>, body: Bytes) -> Response {
    let mut response = json_bytes(StatusCode::OK, body);
    let headers = response.headers_mut();
    headers.insert(
        HeaderName::from_static("x-total-count"),
        HeaderValue::from(list.total),
    );
    if let Some(link) = link(uri, page, list.total) {
        if let Ok(value) = HeaderValue::from_str(&link) {
            headers.insert(header::LINK, value);
        }
    }
    response
}

/// A page of a list that can also be walked with the `after` cursor: as [`page`], except
/// that a client that asked with `after` gets its `next` link with `after` too (the id of
/// the page's last record, `key`), and no `prev`. Clients that page by offset never see it.
pub fn keyed_page<T: Serialize>(
    uri: &Uri,
    page: Page,
    list: &Paged<T>,
    key: impl Fn(&T) -> i64,
) -> Response {
    rendered_keyed_page(uri, page, list, json_of(&list.items), key)
}

/// [`keyed_page`] with the records' JSON already made (`body`, from [`json_of`]).
pub fn rendered_keyed_page<T>(
    uri: &Uri,
    page: Page,
    list: &Paged<T>,
    body: Bytes,
    key: impl Fn(&T) -> i64,
) -> Response {
    if page.after.is_none() {
        return offset_page(uri, page, list, body);
    }
    let mut response = json_bytes(StatusCode::OK, body);
    let headers = response.headers_mut();
    headers.insert(
        HeaderName::from_static("x-total-count"),
        HeaderValue::from(list.total),
    );
    let last = list.items.last().map(key);
    if let Some(last) = last.filter(|_| list.items.len() as i64 == page.limit) {
        let next = format!("<{}>; rel=\"next\"", after_uri(uri, page.limit, last));
        if let Ok(value) = HeaderValue::from_str(&next) {
            headers.insert(header::LINK, value);
        }
    }
    response
}

fn after_uri(uri: &Uri, limit: i64, after: i64) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (name, value) in form_urlencoded::parse(uri.query().unwrap_or("").as_bytes()) {
        // The next page follows the last record directly: any `offset` was this page's.
        if name != "limit" && name != "after" && name != "offset" {
            query.append_pair(&name, &value);
        }
    }
    query.append_pair("limit", &limit.to_string());
    query.append_pair("after", &after.to_string());
    format!("{}?{}", uri.path(), query.finish())
}

fn link(uri: &Uri, page: Page, total: i64) -> Option<String> {
    let mut links = Vec::new();
    if page.offset.saturating_add(page.limit) < total {
        links.push(format!(
            "<{}>; rel=\"next\"",
            page_uri(uri, page.limit, page.offset + page.limit)
        ));
    }
    if page.offset > 0 {
        let prev = (page.offset - page.limit).max(0);
        links.push(format!(
            "<{}>; rel=\"prev\"",
            page_uri(uri, page.limit, prev)
        ));
    }
    (!links.is_empty()).then(|| links.join(", "))
}

fn page_uri(uri: &Uri, limit: i64, offset: i64) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (name, value) in form_urlencoded::parse(uri.query().unwrap_or("").as_bytes()) {
        if name != "limit" && name != "offset" {
            query.append_pair(&name, &value);
        }
    }
    query.append_pair("limit", &limit.to_string());
    query.append_pair("offset", &offset.to_string());
    format!("{}?{}", uri.path(), query.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_point_to_the_next_and_previous_pages_keeping_filters() {
        let uri: Uri = "/pets?status=sold&limit=10&offset=10".parse().unwrap();
        let link = link(
            &uri,
            Page {
                limit: 10,
                offset: 10,
                after: None,
            },
            35,
        )
        .unwrap();
        assert_eq!(
            link,
            "</pets?status=sold&limit=10&offset=20>; rel=\"next\", </pets?status=sold&limit=10&offset=0>; rel=\"prev\""
        );
        assert_eq!(
            super::link(
                &uri,
                Page {
                    limit: 10,
                    offset: 0,
                    after: None,
                },
                5
            ),
            None
        );
    }
}
