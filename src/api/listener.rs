//! The accept loop: connections admitted by [`Registry`], served by hyper, watched by a
//! watchdog, and all closed within [`SHUTDOWN_GRACE`] of the shutdown signal.
//!
//! A connection's watchdog closes it when it sends no request for [`IDLE_TIMEOUT`], takes
//! longer than [`HEADER_TIMEOUT`] to send a request's headers, or leaves an answer unread for
//! [`WRITE_TIMEOUT`] (an event stream nobody reads included). On shutdown, idle connections
//! close at once, requests in flight get [`SHUTDOWN_GRACE`] to finish, and whatever is left is
//! dropped, so `serve` returns in bounded time whatever the clients do.
//!
//! Connections are served on [`ConnectionThreads`]: one thread per CPU, each with its own
//! single-threaded runtime, a connection staying on one of them from accept to close. The
//! accept loop and everything else (the store's background work, the event follower) stay
//! on the runtime that called [`run`].
//!
//! On an HTTPS listener each connection first completes its TLS handshake within
//! [`HANDSHAKE_TIMEOUT`] (a client that dawdles over it is cut, and until it is done the
//! connection counts as idle, so the caps push it out first); the timeouts above then apply
//! to the decrypted connection as to a plain one. A connection that starts with plain HTTP
//! instead is answered a redirect to `https://` (someone typed `http://`).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::Router;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;

use super::connections::{now_ms, Activity, Registry, Ticket};
use super::nofile;

/// Longest a client may take to send a request's headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest a kept-alive connection may sit with no request.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Longest an answer may wait for the client to read it.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(15);
/// How long requests in flight get to finish once shutdown starts.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);
/// Longest a client may take to complete the TLS handshake on an HTTPS listener.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a connection's watchdog looks at it.
const WATCH_EVERY: Duration = Duration::from_millis(500);

/// How a request reached this server, put in every request's extensions.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    /// Whether the connection speaks HTTPS.
    pub https: bool,
}

/// Serves `router` on `listener` (over TLS when `tls` is given) until `shutdown` completes;
/// then closes every connection within [`SHUTDOWN_GRACE`] and returns. `stop` is set to
/// `true` when shutdown starts.
pub async fn run(
    listener: TcpListener,
    router: Router,
    tls: Option<TlsAcceptor>,
    shutdown: impl Future<Output = ()> + Send + 'static,
    stop: watch::Sender<bool>,
) -> io::Result<()> {
    let registry = Registry::new(nofile::connection_cap(), nofile::per_client_cap());
    tracing::debug!(
        connections = registry.cap(),
        per_client = registry.per_client_cap(),
        "connection caps"
    );
    let mut threads = ConnectionThreads::start()?;
    let mut connections = JoinSet::new();
    let stopping = stop.subscribe();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let Some(ticket) = registry.admit(peer.ip()) else {
                        // No room and nothing idle to close: refuse unread, at once.
                        drop(stream);
                        continue;
                    };
                    let _ = stream.set_nodelay(true);
                    let Ok(stream) = stream.into_std() else {
                        continue;
                    };
                    let (router, tls, stopping) = (router.clone(), tls.clone(), stopping.clone());
                    connections.spawn_on(
                        async move {
                            // Registered with the reactor of the thread that serves it.
                            let Ok(stream) = TcpStream::from_std(stream) else {
                                return;
                            };
                            accept_connection(stream, peer, router, tls, ticket, stopping).await;
                        },
                        threads.next(),
                    );
                }
                Err(err) => {
                    // Out of descriptors: close the stalest idle connection, and let the
                    // backlog wait a moment rather than spin.
                    if is_out_of_files(&err) {
                        registry.shed_one();
                    }
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            },
        }
    }
    drop(listener);
    let _ = stop.send(true);
    let deadline = tokio::time::Instant::now() + SHUTDOWN_GRACE;
    while !connections.is_empty() {
        if tokio::time::timeout_at(deadline, connections.join_next())
            .await
            .is_err()
        {
            tracing::warn!(
                left = connections.len(),
                "connections still open after the grace period are dropped"
            );
            connections.shutdown().await;
            break;
        }
    }
    Ok(())
}

/// The threads that serve the connections: one per CPU, each running its own
/// single-threaded runtime, and each connection served start to end by one of them (taken in
/// turn). A connection's reads, its handlers and its writes then stay on one thread: the
/// shared runtime's workers woke and handed tasks to each other for every request.
struct ConnectionThreads {
    handles: Vec<tokio::runtime::Handle>,
    /// How many connections were handed out.
    given: usize,
    stop: Vec<tokio::sync::oneshot::Sender<()>>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl ConnectionThreads {
    fn start() -> io::Result<Self> {
        let count = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        let mut this = Self {
            handles: Vec::with_capacity(count),
            given: 0,
            stop: Vec::with_capacity(count),
            threads: Vec::with_capacity(count),
        };
        for n in 0..count {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            this.handles.push(runtime.handle().clone());
            this.stop.push(stop);
            this.threads.push(
                std::thread::Builder::new()
                    .name(format!("connections-{n}"))
                    .spawn(move || {
                        let _ = runtime.block_on(stopped);
                    })?,
            );
        }
        Ok(this)
    }

    /// The runtime the next connection goes to.
    fn next(&mut self) -> &tokio::runtime::Handle {
        self.given = self.given.wrapping_add(1);
        &self.handles[self.given % self.handles.len()]
    }
}

impl Drop for ConnectionThreads {
    fn drop(&mut self) {
        self.stop.clear();
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

fn is_out_of_files(err: &io::Error) -> bool {
    matches!(err.raw_os_error(), Some(24 | 23))
}

/// Completes the TLS handshake on an HTTPS listener (in bounded time, and not past shutdown
/// or an eviction), then serves the connection.
async fn accept_connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    tls: Option<TlsAcceptor>,
    ticket: Ticket,
    mut stopping: watch::Receiver<bool>,
) {
    let watched = Watched {
        inner: stream,
        activity: ticket.activity.clone(),
    };
    let Some(acceptor) = tls else {
        return serve_connection(watched, peer, router, false, ticket, stopping).await;
    };
    // Someone who typed http:// gets a redirect to https://, not a reset connection.
    let deadline = tokio::time::Instant::now() + HANDSHAKE_TIMEOUT;
    let mut first = [0u8; 1];
    let peeked = tokio::select! {
        peeked = tokio::time::timeout_at(deadline, watched.inner.peek(&mut first)) => peeked,
        () = ticket.close.notified() => return,
        _ = stopping.changed() => return,
    };
    match peeked {
        Ok(Ok(1..)) if first[0] != TLS_HANDSHAKE_RECORD => {
            return serve_connection(watched, peer, https_redirect(), false, ticket, stopping)
                .await;
        }
        Ok(Ok(1..)) => {}
        _ => return,
    }
    let handshake = tokio::time::timeout_at(deadline, acceptor.accept(watched));
    let stream = tokio::select! {
        done = handshake => match done {
            Ok(Ok(stream)) => stream,
            Ok(Err(err)) => {
                tracing::debug!(%peer, %err, "TLS handshake failed");
                return;
            }
            Err(_) => {
                tracing::debug!(%peer, "TLS handshake timed out");
                return;
            }
        },
        () = ticket.close.notified() => return,
        _ = stopping.changed() => return,
    };
    ticket.activity.fresh();
    serve_connection(stream, peer, router, true, ticket, stopping).await;
}

/// The first byte of a TLS client's first record (a handshake).
const TLS_HANDSHAKE_RECORD: u8 = 0x16;

/// Answers plain HTTP on an HTTPS listener: `308` to the same address over `https://`.
fn https_redirect() -> Router {
    use axum::http::{header, StatusCode};
    use axum::response::IntoResponse;
    Router::new().fallback(|req: axum::extract::Request| async move {
        let host = req
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_graphic()));
        let target = req.uri().path_and_query().map_or("/", |p| p.as_str());
        match host {
            Some(host) => (
                StatusCode::PERMANENT_REDIRECT,
                [(header::LOCATION, format!("https://{host}{target}"))],
            )
                .into_response(),
            None => super::error::ApiError::bad_request(
                "this address speaks HTTPS: open it with https://",
            )
            .into_response(),
        }
    })
}

async fn serve_connection<S>(
    stream: S,
    peer: SocketAddr,
    router: Router,
    https: bool,
    ticket: Ticket,
    mut stopping: watch::Receiver<bool>,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let activity = ticket.activity.clone();
    let io = TokioIo::new(stream);
    let request_activity = activity.clone();
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        let router = router.clone();
        let guard = request_activity.begin_request();
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(Arrival { https });
        async move {
            let response = tower::ServiceExt::oneshot(router, req).await;
            // The request stays in flight until its body is sent (or dropped).
            response.map(|r| {
                r.map(|body| {
                    Body::new(body.map_frame(move |frame| {
                        let _ = &guard;
                        frame
                    }))
                })
            })
        }
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .keep_alive(true)
        .serve_connection(io, service);
    tokio::pin!(connection);
    let mut watch = tokio::time::interval(WATCH_EVERY);
    watch.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut shutting_down = *stopping.borrow();
    if shutting_down {
        return;
    }
    loop {
        tokio::select! {
            _ = connection.as_mut() => return,
            () = ticket.close.notified() => return,
            changed = stopping.changed(), if !shutting_down => {
                if changed.is_err() || *stopping.borrow() {
                    shutting_down = true;
                    if activity.is_idle() {
                        return;
                    }
                    connection.as_mut().graceful_shutdown();
                }
            }
            _ = watch.tick() => {
                if overdue(&activity) || (shutting_down && activity.is_idle()) {
                    return;
                }
            }
        }
    }
}

/// Whether the connection has waited past one of its timeouts.
fn overdue(activity: &Activity) -> bool {
    let past = |waited: Option<u64>, limit: Duration| {
        waited.is_some_and(|ms| u128::from(ms) > limit.as_millis())
    };
    let (idle, half_sent, write_blocked) = activity.waits(now_ms());
    past(idle, IDLE_TIMEOUT)
        || past(half_sent, HEADER_TIMEOUT)
        || past(write_blocked, WRITE_TIMEOUT)
}

/// A TCP stream that tells its [`Activity`] when bytes arrive and when writes must wait.
struct Watched {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.read_some();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.activity.write_blocked(polled.is_pending());
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.activity.write_blocked(polled.is_pending());
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
