//! Extractors that turn the parts of a request into checked values, answering in the
//! interface's error shape when they cannot: the JSON body, path ids, role guards and the
//! `If-Match` and `Idempotency-Key` headers.

use std::marker::PhantomData;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

use super::error::ApiError;
use crate::auth::Caller;
use crate::domain::key::Role;
use crate::domain::Precondition;

/// Largest request body accepted.
pub const BODY_LIMIT: usize = crate::contract::BODY_BYTES.max_usize();

/// A JSON body parsed into `T`, with errors that name the offending field.
pub struct JsonBody<T> {
    pub value: T,
    /// SHA-256 of the body's canonical JSON (sorted keys, no spaces): what idempotent
    /// replays compare.
    pub canonical_hash: String,
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .map(|m| {
                let m = m.trim().to_ascii_lowercase();
                m == "application/json" || (m.starts_with("application/") && m.ends_with("+json"))
            })
            .unwrap_or(false);
        if !is_json {
            return Err(ApiError::for_status(StatusCode::UNSUPPORTED_MEDIA_TYPE));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::for_status(StatusCode::PAYLOAD_TOO_LARGE)
            } else {
                ApiError::bad_request("the request body could not be read")
            }
        })?;
        parse(&bytes)
    }
}

/// Parses a JSON body: not JSON, a wrong type or an unknown field is 400, naming the field.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<JsonBody<T>, ApiError> {
    let raw: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| ApiError::bad_request(format!("the body is not valid JSON: {e}")))?;
    if !raw.is_object() {
        return Err(ApiError::bad_request("the body must be a JSON object"));
    }
    let canonical = raw.to_string();
    let value = serde_path_to_error::deserialize(&raw).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        if path == "." {
            ApiError::bad_request(inner)
        } else {
            ApiError::bad_request(format!("{path}: {inner}"))
        }
    })?;
    Ok(JsonBody {
        value,
        canonical_hash: hex::encode(Sha256::digest(canonical.as_bytes())),
    })
}

/// A record id from the path. Anything but a positive int64 names no record: 404.
pub struct Id(pub i64);

impl<S: Send + Sync> FromRequestParts<S> for Id {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(raw) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::not_found("there is nothing at this address"))?;
        // Only the canonical form names a record: no sign, no leading zeros, no spaces.
        let canonical =
            !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit()) && !raw.starts_with('0');
        match raw.parse::<i64>() {
            Ok(id) if canonical && id > 0 => Ok(Id(id)),
            _ => Err(ApiError::not_found(format!(
                "no record has the id {raw:?}; ids are positive integers"
            ))),
        }
    }
}

/// A role a guard can require.
pub trait RoleMarker {
    const ROLE: Role;
}

macro_rules! role_marker {
    ($name:ident, $role:expr) => {
        pub struct $name;
        impl RoleMarker for $name {
            const ROLE: Role = $role;
        }
    };
}
role_marker!(Readonly, Role::Readonly);
role_marker!(Pos, Role::Pos);
role_marker!(Staff, Role::Staff);
role_marker!(Admin, Role::Admin);

/// The authenticated caller, checked to have at least role `R`. Being a parts extractor,
/// it runs before the body is read: a key without the role gets 403 whatever it sent.
pub struct Auth<R> {
    pub caller: Arc<Caller>,
    role: PhantomData<R>,
}

impl<R> Auth<R> {
    pub fn key_name(&self) -> Option<String> {
        Some(self.caller.name.clone())
    }
}

impl<S: Send + Sync, R: RoleMarker> FromRequestParts<S> for Auth<R> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let caller = parts
            .extensions
            .get::<Arc<Caller>>()
            .cloned()
            .ok_or_else(ApiError::unauthorized)?;
        if !caller.may(R::ROLE) {
            return Err(ApiError::forbidden(R::ROLE.as_str()));
        }
        Ok(Self {
            caller,
            role: PhantomData,
        })
    }
}

/// The `If-Match` header, parsed into the condition the store checks a change against.
pub struct IfMatch(pub Precondition);

impl<S: Send + Sync> FromRequestParts<S> for IfMatch {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        match parts.headers.get(header::IF_MATCH) {
            None => Ok(Self(Precondition::None)),
            Some(value) => value
                .to_str()
                .map(|v| {
                    Self(Precondition::OneOf(
                        v.split(',').map(|tag| tag.trim().to_owned()).collect(),
                    ))
                })
                .map_err(|_| ApiError::bad_request("If-Match must be visible ASCII")),
        }
    }
}

/// Most characters in an `Idempotency-Key`.
pub const IDEMPOTENCY_KEY_MAX: usize = crate::contract::IDEMPOTENCY_KEY.max_usize();

/// The `Idempotency-Key` header, unquoted, if any.
pub struct IdempotencyKey(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for IdempotencyKey {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let Some(value) = parts.headers.get("idempotency-key") else {
            return Ok(Self(None));
        };
        let raw = value
            .to_str()
            .map_err(|_| ApiError::bad_request("Idempotency-Key must be visible ASCII"))?
            .trim();
        let key = raw
            .strip_prefix('"')
            .and_then(|k| k.strip_suffix('"'))
            .unwrap_or(raw);
        // The bound counts the header as sent, quotes included, as the document states it.
        if key.is_empty() || raw.chars().count() > IDEMPOTENCY_KEY_MAX {
            return Err(ApiError::bad_request(format!(
                "Idempotency-Key must be 1 to {IDEMPOTENCY_KEY_MAX} characters"
            )));
        }
        Ok(Self(Some(key.to_owned())))
    }
}
