//! `/admin/keys`: creating, changing and revoking API keys, their usage and their bans.

use axum::extract::State;
use axum::http::Uri;
use axum::response::Response;
use serde::Serialize;

use super::error::Result;
use super::extract::{Admin, Auth, Id, JsonBody};
use super::query::Query;
use super::respond;
use super::state::AppState;
use crate::app::App;
use crate::domain::key::{KeyPatchInput, KeyRecord, NewKey, NewKeyInput};
use crate::domain::query::Page;
use crate::domain::time;
use crate::limits::{Subject, WindowStatus};

/// A key as admin listings show it: never its secret.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyView {
    id: i64,
    name: String,
    role: &'static str,
    plan: &'static str,
    per_minute: u64,
    per_day: u64,
    prefix: String,
    created_at: String,
    last_used_at: Option<String>,
    revoked_at: Option<String>,
    banned_until: Option<String>,
    usage: UsageView,
}

#[derive(Serialize)]
struct UsageView {
    minute: WindowView,
    day: WindowView,
}

#[derive(Serialize)]
struct WindowView {
    used: u64,
    limit: u64,
    remaining: u64,
    reset: i64,
}

impl From<&WindowStatus> for WindowView {
    fn from(w: &WindowStatus) -> Self {
        Self {
            used: w.used,
            limit: w.limit,
            remaining: w.remaining,
            reset: w.reset,
        }
    }
}

/// A key just created: the only answer that carries its secret.
#[derive(Serialize)]
pub(super) struct CreatedKey {
    #[serde(flatten)]
    key: KeyView,
    secret: String,
}

fn unix_to_time(at: i64) -> Option<String> {
    chrono::DateTime::from_timestamp(at, 0).map(time::format)
}

fn view(app: &App, key: KeyRecord) -> KeyView {
    let subject = Subject::Key(key.id);
    let quota = key.quota();
    let status = app.limiter().peek(&subject, quota);
    let last_used_at = app
        .keyring()
        .last_used(key.id)
        .and_then(unix_to_time)
        .or(key.last_used_at);
    KeyView {
        id: key.id,
        name: key.name,
        role: key.role.as_str(),
        plan: key.plan.as_str(),
        per_minute: quota.per_minute,
        per_day: quota.per_day,
        prefix: key.prefix,
        created_at: key.created_at,
        last_used_at,
        revoked_at: key.revoked_at,
        banned_until: app.limiter().banned_until(&subject).and_then(unix_to_time),
        usage: UsageView {
            minute: (&status.minute).into(),
            day: (&status.day).into(),
        },
    }
}

/// Keys, oldest first, paged like every list. A shop has a handful of keys, so the page is
/// cut from the whole list rather than in SQL.
pub async fn list(
    _: Auth<Admin>,
    State(s): State<AppState>,
    uri: Uri,
    Query(page): Query<Page>,
) -> Result<Response> {
    let all = s.app.store().keys().list().await?;
    Ok(respond::page_of_all(&uri, page, all, |k| view(&s.app, k)))
}

/// The answer for a key just made (here, or by pairing a till): the key and its secret.
pub(super) fn created(app: &App, record: KeyRecord, secret: String) -> Response {
    let id = record.id;
    let created = CreatedKey {
        key: view(app, record),
        secret,
    };
    respond::created(format!("/admin/keys/{id}"), &created)
}

pub async fn create(
    _: Auth<Admin>,
    State(s): State<AppState>,
    body: JsonBody<NewKeyInput>,
) -> Result<Response> {
    let new = NewKey::try_from(body.value)?;
    let (record, secret) = s.app.keys().create(new).await?;
    let id = record.id;
    let created = CreatedKey {
        key: view(&s.app, record),
        secret,
    };
    Ok(respond::created(format!("/admin/keys/{id}"), &created))
}

pub async fn update(
    _: Auth<Admin>,
    State(s): State<AppState>,
    Id(id): Id,
    body: JsonBody<KeyPatchInput>,
) -> Result<Response> {
    let record = s.app.keys().update(id, body.value).await?;
    Ok(respond::record(&view(&s.app, record)))
}

pub async fn revoke(_: Auth<Admin>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    s.app.keys().revoke(id).await?;
    Ok(respond::no_content())
}

pub async fn lift_ban(_: Auth<Admin>, State(s): State<AppState>, Id(id): Id) -> Result<Response> {
    s.app.store().keys().get(id).await?;
    s.app.lift_ban(Subject::Key(id)).await?;
    Ok(respond::no_content())
}
