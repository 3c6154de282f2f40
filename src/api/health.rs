//! `GET /health`: whether the store answers. No key, no rate limit.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::state::AppState;

pub async fn health(State(s): State<AppState>) -> Response {
    match s.app.store().ping().await {
        Ok(()) => (
            StatusCode::OK,
            axum::Json(serde_json::json!({ "status": "ok" })),
        )
            .into_response(),
        Err(err) => ApiError::from(err).into_response(),
    }
}
