//! `/admin/backups`: the store's backups, listed newest first, taken now, downloaded by name.
//! The file system work runs off the async runtime; a download is sent a chunk at a time,
//! never read whole into memory.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::error::{ApiError, Result};
use super::extract::{Admin, Auth};
use super::query::Query;
use super::respond;
use super::state::AppState;
use crate::contract::Code;
use crate::domain::query::Page;
use crate::domain::time;
use crate::store::{BackupFile, BackupKind, StoreError};

/// A backup as the interface shows it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackupView {
    name: String,
    size: u64,
    created_at: String,
}

impl From<BackupFile> for BackupView {
    fn from(file: BackupFile) -> Self {
        Self {
            name: file.name,
            size: file.size,
            created_at: time::format(file.created_at),
        }
    }
}

/// Runs blocking file work off the async runtime.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> std::result::Result<T, StoreError> + Send + 'static,
) -> Result<T> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| ApiError::internal())?
        .map_err(ApiError::from)
}

pub async fn list(
    _: Auth<Admin>,
    State(s): State<AppState>,
    uri: Uri,
    Query(page): Query<Page>,
) -> Result<Response> {
    let backups = s.app.backups().clone();
    let all = blocking(move || backups.list()).await?;
    Ok(respond::page_of_all(&uri, page, all, BackupView::from))
}

pub async fn take(_: Auth<Admin>, State(s): State<AppState>) -> Result<Response> {
    let backups = s.app.backups().clone();
    let taken = tokio::task::spawn_blocking(move || backups.take(BackupKind::Manual))
        .await
        .map_err(|_| ApiError::internal())?
        .map_err(|err| {
            if let StoreError::Domain(refusal) = err {
                // A PostgreSQL store: backups are pg_dump's (409 conflict, saying so).
                return ApiError::from(refusal);
            }
            tracing::error!(%err, "a backup asked for failed");
            ApiError::new(
                Code::Unavailable,
                format!("the backup could not be written: {err}"),
            )
        })?;
    let view = BackupView::from(taken);
    Ok(respond::created(
        format!("/admin/backups/{}", view.name),
        &view,
    ))
}

pub async fn download(
    _: Auth<Admin>,
    State(s): State<AppState>,
    Path(name): Path<String>,
) -> Result<Response> {
    let backups = s.app.backups().clone();
    let found = blocking(move || {
        let Some((file, path)) = backups.find(&name) else {
            return Ok(None);
        };
        // Opened now: a backup pruned while it is sent is still sent whole.
        let opened = std::fs::File::open(&path)
            .map_err(|e| StoreError::Internal(format!("cannot read {}: {e}", path.display())))?;
        Ok(Some((file, opened)))
    })
    .await?;
    let Some((file, opened)) = found else {
        return Err(ApiError::not_found("there is no backup with this name"));
    };
    let disposition = format!("attachment; filename=\"{}\"", file.name);
    let mut response = (StatusCode::OK, Body::from_stream(chunks(opened))).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(file.size));
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/vnd.sqlite3"),
    );
    if let Ok(value) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// Bytes read from a download at a time: a download holds one such chunk, never the file.
const CHUNK: usize = 64 * 1024;

/// The file's bytes, read a chunk at a time off the async runtime.
fn chunks(
    file: std::fs::File,
) -> impl futures_util::Stream<Item = std::io::Result<bytes::Bytes>> + Send {
    futures_util::stream::unfold(Some(file), |file| async move {
        let mut file = file?;
        let read = tokio::task::spawn_blocking(move || {
            use std::io::Read;
            let mut buf = vec![0; CHUNK];
            let n = file.read(&mut buf)?;
            buf.truncate(n);
            Ok::<_, std::io::Error>((buf, file))
        })
        .await
        .unwrap_or_else(|e| Err(std::io::Error::other(e)));
        match read {
            Ok((buf, _)) if buf.is_empty() => None,
            Ok((buf, file)) => Some((Ok(bytes::Bytes::from(buf)), Some(file))),
            Err(err) => Some((Err(err), None)),
        }
    })
}
