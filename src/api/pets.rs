//! `/pets`: the animals for sale.

use axum::extract::State;
use axum::http::{HeaderName, HeaderValue, Uri};
use axum::response::{IntoResponse, Response};

use super::error::{ApiError, Result};
use super::extract::{Auth, Id, IfMatch, JsonBody, Readonly, Staff};
use super::query::Query;
use super::respond;
use super::state::AppState;
use crate::contract::Code;
use crate::domain::pet::{NewPet, PetInput, PetPatch, PetPatchInput};
use crate::domain::query::PetQuery;

/// When `GET /pets/{petId}` was deprecated (RFC 9745: `@` and Unix seconds): 2026-01-01.
const DEPRECATED_SINCE: &str = "@1767225600";

pub async fn list(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    uri: Uri,
    Query(query): Query<PetQuery>,
) -> Result<Response> {
    let page = query.page;
    // A page remembered since nothing it shows changed: answered with its JSON as first made.
    if let Some(hit) = s.app.store().pets().remembered(&query) {
        let body = hit
            .rendered
            .get_or_init(|| respond::json_of(&hit.list.items))
            .clone();
        return Ok(respond::rendered_keyed_page(
            &uri,
            page,
            &hit.list,
            body,
            |p| p.id,
        ));
    }
    let list = s.app.store().pets().list(query).await?;
    Ok(respond::keyed_page(&uri, page, &list, |p| p.id))
}

pub async fn create(
    _: Auth<Staff>,
    State(s): State<AppState>,
    body: JsonBody<PetInput>,
) -> Result<Response> {
    let new = NewPet::try_from(body.value)?;
    let pet = s.app.store().pets().create(new).await?;
    Ok(respond::created(format!("/pets/{}", pet.id), &pet))
}

/// The deprecated single-pet read: works until the sunset, then answers 410; every answer
/// carries `Deprecation`, `Sunset` and a `Link` to `GET /pets?ids={petId}`.
pub async fn get(_: Auth<Readonly>, State(s): State<AppState>, Id(id): Id) -> Response {
    let sunset = s.app.settings().sunset;
    // The app's clock, not the system's: the same time every other rule of the server uses.
    let mut response = if s.app.now() >= sunset.timestamp() {
        ApiError::new(
            Code::Gone,
            format!("GET /pets/{{petId}} was retired; use GET /pets?ids={id}"),
        )
        .into_response()
    } else {
        match s.app.store().pets().get(id).await {
            Ok(pet) => respond::record(&pet),
            Err(err) => ApiError::from(err).into_response(),
        }
    };
    let headers = response.headers_mut();
    headers.insert(
        HeaderName::from_static("deprecation"),
        HeaderValue::from_static(DEPRECATED_SINCE),
    );
    if let Ok(value) = HeaderValue::from_str(&httpdate::fmt_http_date(sunset.into())) {
        headers.insert(HeaderName::from_static("sunset"), value);
    }
    if let Ok(value) =
        HeaderValue::from_str(&format!("</pets?ids={id}>; rel=\"successor-version\""))
    {
        headers.insert(axum::http::header::LINK, value);
    }
    response
}

pub async fn replace(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
    body: JsonBody<PetInput>,
) -> Result<Response> {
    let new = NewPet::try_from(body.value)?;
    let pet = s.app.store().pets().replace(id, new, pre).await?;
    Ok(respond::record(&pet))
}

pub async fn patch(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
    body: JsonBody<PetPatchInput>,
) -> Result<Response> {
    let patch = PetPatch::try_from(body.value)?;
    let pet = s.app.store().pets().patch(id, patch, pre).await?;
    Ok(respond::record(&pet))
}

pub async fn delete(
    _: Auth<Staff>,
    State(s): State<AppState>,
    Id(id): Id,
    IfMatch(pre): IfMatch,
) -> Result<Response> {
    s.app.store().pets().delete(id, pre).await?;
    Ok(respond::no_content())
}
