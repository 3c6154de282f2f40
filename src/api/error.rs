//! The one error type handlers return, and its mapping to the interface's Error object
//! `{code, message, status}`. A 500's text is logged, never sent.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::contract;
use crate::domain::DomainError;
use crate::store::StoreError;

/// Seconds a client is told to wait before retrying after a 503.
pub const RETRY_UNAVAILABLE_SECS: u64 = 5;

/// An error as a client sees it.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// Itemised problems sent beside code, message and status (a CSV import's errors).
    pub errors: Option<serde_json::Value>,
}

/// `Result` with [`ApiError`].
pub type Result<T, E = ApiError> = std::result::Result<T, E>;

#[derive(Serialize)]
struct Body<'a> {
    code: &'a str,
    message: &'a str,
    status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<&'a serde_json::Value>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            errors: None,
        }
    }

    /// This error with an itemised `errors` list beside code, message and status.
    pub fn with_errors(mut self, errors: serde_json::Value) -> Self {
        self.errors = Some(errors);
        self
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    pub fn unauthorized() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "a valid API key is required: send it as X-API-Key or Authorization: Bearer",
        )
    }

    pub fn forbidden(needed: &str) -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            format!("this key's role may not do this; it needs the {needed} role or higher"),
        )
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "something went wrong on the server; the request may be retried",
        )
    }

    /// The error the interface gives for a bare status (used for the framework's own answers).
    pub fn for_status(status: StatusCode) -> Self {
        let (code, message) = match status.as_u16() {
            400 => ("bad_request", "the request is malformed"),
            401 => ("unauthorized", "a valid API key is required"),
            403 => ("forbidden", "this key's role may not do this"),
            404 => ("not_found", "there is nothing at this address"),
            405 => (
                "method_not_allowed",
                "this address does not accept this method; see the Allow header",
            ),
            408 => (
                "request_timeout",
                "the request took too long and was stopped",
            ),
            413 => (
                "payload_too_large",
                "the request body is larger than 64 KiB",
            ),
            415 => (
                "unsupported_media_type",
                "the body must be JSON (Content-Type: application/json)",
            ),
            503 => (
                "unavailable",
                "the store cannot serve now; try again shortly",
            ),
            _ if status.is_server_error() => ("internal", "something went wrong on the server"),
            _ => ("bad_request", "the request cannot be served"),
        };
        Self::new(status, code, message)
    }
}

impl From<DomainError> for ApiError {
    fn from(err: DomainError) -> Self {
        // Each code's status is written once, in the contract's table; a code missing from
        // it is a bug (a unit test of `contract` lists every domain error).
        match contract::status_of(err.code()).and_then(|s| StatusCode::from_u16(s).ok()) {
            Some(status) => Self::new(status, err.code(), err.to_string()),
            None => {
                tracing::error!(code = err.code(), "error code missing from the contract");
                Self::internal()
            }
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Domain(err) => err.into(),
            StoreError::Busy | StoreError::Closed => Self::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                err.to_string(),
            ),
            StoreError::Unavailable(ref why) => {
                tracing::error!(%why, "the store cannot save changes");
                Self::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "unavailable",
                    err.to_string(),
                )
            }
            StoreError::Sqlite(_) | StoreError::Internal(_) | StoreError::Refused(_) => {
                tracing::error!(%err, "store failure");
                Self::internal()
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::to_vec(&Body {
            code: self.code,
            message: &self.message,
            status: self.status.as_u16(),
            errors: self.errors.as_ref(),
        })
        .unwrap_or_default();
        let mut response = (self.status, body).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        // Every 503 says when to come back; a handler may set a more exact value.
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(RETRY_UNAVAILABLE_SECS),
            );
        }
        response
    }
}
