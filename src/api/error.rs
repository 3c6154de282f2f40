//! The one error type handlers return, and its mapping to the interface's Error object
//! `{code, message, status}`. A 500's text is logged, never sent.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::contract::{self, Code};
use crate::domain::DomainError;
use crate::store::StoreError;

/// Seconds a client is told to wait before retrying after a 503.
pub const RETRY_UNAVAILABLE_SECS: u64 = 5;

/// An error as a client sees it.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: Code,
    pub message: String,
    /// Itemised problems sent beside code, message and status (a CSV import's errors).
    pub errors: Option<serde_json::Value>,
    /// Seconds sent as `Retry-After` (every 503 has one; a 429 says its own).
    pub retry_after: Option<u64>,
    /// The line of the request refused (a sale's), counted from 0.
    pub line: Option<usize>,
}

/// `Result` with [`ApiError`].
pub type Result<T, E = ApiError> = std::result::Result<T, E>;

#[derive(Serialize)]
struct Body<'a> {
    code: Code,
    message: &'a str,
    status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<&'a serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
}

impl ApiError {
    /// An error with `code`, at the status the contract gives that code.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        let status =
            StatusCode::from_u16(code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        Self::at(status, code, message)
    }

    fn at(status: StatusCode, code: Code, message: impl Into<String>) -> Self {
        let retry_after =
            (status == StatusCode::SERVICE_UNAVAILABLE).then_some(RETRY_UNAVAILABLE_SECS);
        Self {
            status,
            code,
            message: message.into(),
            errors: None,
            retry_after,
            line: None,
        }
    }

    /// This error with an itemised `errors` list beside code, message and status.
    pub fn with_errors(mut self, errors: serde_json::Value) -> Self {
        self.errors = Some(errors);
        self
    }

    /// This error telling the client to come back after `secs` seconds (`Retry-After`).
    pub fn with_retry_after(mut self, secs: u64) -> Self {
        self.retry_after = Some(secs);
        self
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(Code::BadRequest, message)
    }

    pub fn unauthorized() -> Self {
        Self::new(
            Code::Unauthorized,
            "a valid API key is required: send it as X-API-Key or Authorization: Bearer",
        )
    }

    pub fn forbidden(needed: &str) -> Self {
        Self::new(
            Code::Forbidden,
            format!("this key's role may not do this; it needs the {needed} role or higher"),
        )
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(Code::NotFound, message)
    }

    pub fn internal() -> Self {
        Self::new(
            Code::Internal,
            "something went wrong on the server; the request may be retried",
        )
    }

    /// The error the interface gives for a bare status (used for the framework's own answers).
    pub fn for_status(status: StatusCode) -> Self {
        let (code, message) = match status.as_u16() {
            400 => (Code::BadRequest, "the request is malformed".to_owned()),
            401 => (Code::Unauthorized, "a valid API key is required".to_owned()),
            403 => (
                Code::Forbidden,
                "this key's role may not do this".to_owned(),
            ),
            404 => (
                Code::NotFound,
                "there is nothing at this address".to_owned(),
            ),
            405 => (
                Code::MethodNotAllowed,
                "this address does not accept this method; see the Allow header".to_owned(),
            ),
            408 => (
                Code::RequestTimeout,
                "the request took too long and was stopped".to_owned(),
            ),
            413 => (
                Code::PayloadTooLarge,
                format!(
                    "the request body is larger than {}",
                    contract::kib(contract::BODY_BYTES.max)
                ),
            ),
            415 => (
                Code::UnsupportedMediaType,
                "the body must be JSON (Content-Type: application/json)".to_owned(),
            ),
            503 => (
                Code::Unavailable,
                "the store cannot serve now; try again shortly".to_owned(),
            ),
            _ if status.is_server_error() => (
                Code::Internal,
                "something went wrong on the server".to_owned(),
            ),
            _ => (Code::BadRequest, "the request cannot be served".to_owned()),
        };
        Self::at(status, code, message)
    }
}

impl From<DomainError> for ApiError {
    fn from(err: DomainError) -> Self {
        // The code fixes the status (the contract's table), so no domain error can lack one.
        Self {
            line: err.line(),
            ..Self::new(err.code(), err.to_string())
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Domain(err) => err.into(),
            StoreError::Busy | StoreError::Closed => Self::new(Code::Unavailable, err.to_string()),
            StoreError::Unavailable(ref why) => {
                static SAID: crate::repeats::Repeats = crate::repeats::Repeats::new();
                if let Some(left_out) = SAID.now() {
                    tracing::error!(%why, left_out, "the store cannot save changes");
                }
                Self::new(Code::Unavailable, err.to_string())
            }
            StoreError::Sqlite(_)
            | StoreError::Internal(_)
            | StoreError::Refused(_)
            | StoreError::NewerSchema { .. } => {
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
            line: self.line,
        })
        .unwrap_or_default();
        let mut response = (self.status, body).into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        // Every 503 says when to come back; a 429 says when its window reopens.
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}
