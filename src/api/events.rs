//! `GET /events`: every committed change as Server-Sent Events.
//!
//! Each message has an increasing `id:` (the event's row id), an `event:` type and `data:`
//! `{type, at, data}`. A client resuming with `Last-Event-ID` first gets what it missed from
//! the database, then the live feed. Writers never wait for subscribers: the broadcast
//! channel drops what a slow subscriber has not taken, and that subscriber catches up from
//! the database. A comment line every [`HEARTBEAT`] keeps proxies and clients sure the
//! stream is alive. Connections are bounded by [`MAX_SUBSCRIBERS`].

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, watch, OwnedSemaphorePermit, Semaphore};

use super::error::{ApiError, Result};
use super::extract::{Auth, Readonly};
use super::query::{NoParams, Query};
use super::state::AppState;
use crate::domain::event::Event;
use crate::store::Store;

/// How often an idle stream sends a heartbeat comment.
pub const HEARTBEAT: Duration = Duration::from_secs(15);
/// Most open streams at once; more get 503.
pub const MAX_SUBSCRIBERS: usize = 64;
/// Most missed events read from the database at a time.
const CATCH_UP_BATCH: i64 = 500;

fn permits() -> Arc<Semaphore> {
    static PERMITS: OnceLock<Arc<Semaphore>> = OnceLock::new();
    PERMITS
        .get_or_init(|| Arc::new(Semaphore::new(MAX_SUBSCRIBERS)))
        .clone()
}

pub async fn stream(
    _: Auth<Readonly>,
    State(s): State<AppState>,
    headers: HeaderMap,
    _: Query<NoParams>,
) -> Result<Response> {
    let permit = permits().try_acquire_owned().map_err(|_| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            format!("too many open event streams (at most {MAX_SUBSCRIBERS}); try again later"),
        )
    })?;
    let resume_from = match headers.get("last-event-id") {
        None => None,
        Some(value) => Some(
            value
                .to_str()
                .ok()
                .and_then(|v| v.trim().parse::<i64>().ok())
                .filter(|id| *id >= 0)
                .ok_or_else(|| {
                    ApiError::bad_request("Last-Event-ID must be an event id (a whole number)")
                })?,
        ),
    };
    // Subscribe before reading the database, so nothing committed in between is lost.
    let live = s.app.store().subscribe();
    let last_id = match resume_from {
        Some(id) => id,
        None => s.app.store().events().last_id().await?,
    };
    let feed = Feed {
        store: s.app.store().clone(),
        live,
        backlog: VecDeque::new(),
        last_id,
        caught_up: resume_from.is_none(),
        shutdown: s.shutdown.clone(),
        heartbeat: tokio::time::interval_at(tokio::time::Instant::now() + HEARTBEAT, HEARTBEAT),
        greeted: false,
        _permit: permit,
    };
    let body = Body::from_stream(futures_util::stream::unfold(feed, Feed::next));
    let mut response = body.into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

struct Feed {
    store: Store,
    live: broadcast::Receiver<Arc<Event>>,
    backlog: VecDeque<Event>,
    last_id: i64,
    caught_up: bool,
    shutdown: watch::Receiver<bool>,
    heartbeat: tokio::time::Interval,
    greeted: bool,
    _permit: OwnedSemaphorePermit,
}

type Chunk = std::result::Result<Bytes, Infallible>;

impl Feed {
    async fn next(mut self) -> Option<(Chunk, Self)> {
        if !self.greeted {
            self.greeted = true;
            return Some((
                Ok(Bytes::from_static(b"retry: 2000\n: connected\n\n")),
                self,
            ));
        }
        loop {
            if *self.shutdown.borrow() {
                return None;
            }
            if let Some(event) = self.backlog.pop_front() {
                if let Some(chunk) = self.emit(&event) {
                    return Some((Ok(chunk), self));
                }
                continue;
            }
            if !self.caught_up {
                let from = self.last_id;
                let missed = self.store.events().since(from, CATCH_UP_BATCH).await.ok()?;
                self.caught_up = (missed.len() as i64) < CATCH_UP_BATCH;
                self.backlog.extend(missed);
                continue;
            }
            tokio::select! {
                changed = self.shutdown.changed() => {
                    if changed.is_err() || *self.shutdown.borrow() {
                        return None;
                    }
                }
                _ = self.heartbeat.tick() => {
                    return Some((Ok(Bytes::from_static(b": heartbeat\n\n")), self));
                }
                received = self.live.recv() => match received {
                    Ok(event) => {
                        if let Some(chunk) = self.emit(&event) {
                            return Some((Ok(chunk), self));
                        }
                    }
                    Err(RecvError::Lagged(_)) => self.caught_up = false,
                    Err(RecvError::Closed) => return None,
                },
            }
        }
    }

    /// The SSE message for `event`, unless it was sent already.
    fn emit(&mut self, event: &Event) -> Option<Bytes> {
        if event.id <= self.last_id {
            return None;
        }
        self.last_id = event.id;
        self.heartbeat.reset();
        let data = serde_json::to_string(event).ok()?;
        Some(Bytes::from(format!(
            "id: {}\nevent: {}\ndata: {}\n\n",
            event.id, event.kind, data
        )))
    }
}
