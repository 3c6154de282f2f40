//! `GET /events`: every committed change as Server-Sent Events.
//!
//! Each message has an increasing `id:` (the event's row id), an `event:` type and `data:`
//! `{type, at, data}`. A client resuming with `Last-Event-ID` first gets what it missed from
//! the database, then the live feed. Writers never wait for subscribers: the broadcast
//! channel drops what a slow subscriber has not taken, and that subscriber catches up from
//! the database. A comment line every [`HEARTBEAT`] keeps proxies and clients sure the
//! stream is alive.
//!
//! Places are shared fairly ([`crate::limits::StreamPlaces`]): a share per key and per client
//! network, a few kept for the desktop window, and 503 with `Retry-After` when there is no
//! place. A stream ends within [`KEY_CHECK`] (plus the keyring's reload) once its key is
//! revoked or its role changed, and sends no event after this process has answered the
//! revocation (each event is checked against the keyring before it is sent). A `Last-Event-ID` beyond the newest event, or older than the
//! history kept, is answered with a `reset` event: the client must refetch what it shows.
//! A stream its client does not read is closed by the connection's write timeout.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, watch};

use super::error::{ApiError, Result};
use super::extract::{Auth, Readonly};
use super::query::{NoParams, Query};
use super::state::AppState;
use crate::app::App;
use crate::auth::Caller;
use crate::contract::Code;
use crate::domain::event::Event;
use crate::limits::{Place, Refusal, PER_CLIENT, PER_KEY};
use crate::store::Store;

/// How often an idle stream sends a heartbeat comment.
pub const HEARTBEAT: Duration = Duration::from_secs(15);
/// How often a stream checks that its key still holds.
pub const KEY_CHECK: Duration = Duration::from_millis(500);
/// Most missed events read from the database at a time.
const CATCH_UP_BATCH: i64 = 500;
/// Seconds a client refused a place is told to wait.
const RETRY_FULL_SECS: u64 = 10;

pub async fn stream(
    auth: Auth<Readonly>,
    State(s): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    _: Query<NoParams>,
) -> Result<Response> {
    let caller = auth.caller;
    let desktop = caller.is_session() && peer.ip().to_canonical().is_loopback();
    let place = s
        .app
        .stream_places()
        .take(caller.subject(), peer.ip(), desktop)
        .map_err(|refusal| {
            let why = match refusal {
                Refusal::Full => "every event stream place is taken".to_owned(),
                Refusal::KeyShare => {
                    format!("this key (or staff member) already has {PER_KEY} event streams open")
                }
                Refusal::ClientShare => {
                    format!("this address already has {PER_CLIENT} event streams open")
                }
            };
            ApiError::new(
                Code::Unavailable,
                format!("{why}; try again in {RETRY_FULL_SECS} seconds"),
            )
            .with_retry_after(RETRY_FULL_SECS)
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
    let (oldest, newest) = s.app.store().events().bounds().await?;
    // Resuming past the newest event (another store, or one restored from a backup) or
    // from before the kept history (events pruned since) cannot be done: say so.
    let reset = resume_from.is_some_and(|id| id > newest || (oldest > 0 && id < oldest - 1));
    let last_id = match resume_from {
        Some(id) if !reset => id,
        _ => newest,
    };
    let feed = Feed {
        store: s.app.store().clone(),
        live,
        backlog: VecDeque::new(),
        last_id,
        caught_up: resume_from.is_none() || reset,
        shutdown: s.shutdown.clone(),
        heartbeat: tokio::time::interval_at(tokio::time::Instant::now() + HEARTBEAT, HEARTBEAT),
        key_check: tokio::time::interval(KEY_CHECK),
        app: s.app.clone(),
        caller,
        greeted: false,
        reset,
        _place: place,
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
    key_check: tokio::time::Interval,
    app: App,
    caller: Arc<Caller>,
    greeted: bool,
    /// Whether the client must be told to refetch (its `Last-Event-ID` cannot be resumed).
    reset: bool,
    _place: Place,
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
        if self.reset {
            self.reset = false;
            let chunk = format!(
                "id: {0}\nevent: reset\ndata: {{\"type\":\"reset\",\"lastEventId\":{0}}}\n\n",
                self.last_id
            );
            return Some((Ok(Bytes::from(chunk)), self));
        }
        loop {
            if *self.shutdown.borrow() || !self.app.keyring().still_holds(&self.caller) {
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
                _ = self.key_check.tick() => {
                    if !self.app.keyring().still_holds(&self.caller) {
                        return None;
                    }
                }
                received = self.live.recv() => match received {
                    // Checked again for every event: once a revocation (or a new role) is
                    // answered, the keyring has it, and the stream sends nothing more.
                    Ok(_) if !self.app.keyring().still_holds(&self.caller) => return None,
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
        let data = event.to_json();
        Some(Bytes::from(format!(
            "id: {}\nevent: {}\ndata: {}\n\n",
            event.id, event.kind, data
        )))
    }
}
