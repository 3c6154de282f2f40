//! The in-process server: one `petstore::App` served on a few listeners.
//!
//! - the window's listener on loopback, for the life of the process;
//! - the `PETSTORE_BIND` address as well, when a power user set it to something that is not an
//!   IPv4 loopback address (for example `0.0.0.0:9000`);
//! - the LAN listener on `IP:PORT`, IP being this PC's address on the network the shop chose,
//!   while "Let devices on this network use the store" is on.
//!
//! Each listener runs `petstore::serve` in its own task with its own shutdown signal. Stopping
//! one sends the signal and waits for `serve` to return: the listener closes at once, so new
//! connections are refused, and requests in flight finish. Every listener is bound before the
//! window or the caller is told about it, so there is no waiting for readiness.

use std::{
    io,
    net::{Ipv4Addr, SocketAddr, SocketAddrV4},
    time::Duration,
};

use petstore::App;
use tokio::{net::TcpListener, sync::oneshot, task::JoinHandle};

/// How long a stopping listener may take to finish its requests in flight. Past it the rest
/// are cut off (an SSE stream, say): the store stays consistent either way.
const GRACE: Duration = Duration::from_secs(10);

/// `petstore::serve` running on one listener.
struct Served {
    addr: SocketAddr,
    https: bool,
    stop: oneshot::Sender<()>,
    task: JoinHandle<io::Result<()>>,
}

impl Served {
    /// Binds `addr` and starts serving on it (over HTTPS with the store's own certificate
    /// when `https`). Must run inside the Tokio runtime.
    async fn start(app: &App, addr: SocketAddr, https: bool) -> io::Result<Served> {
        if https {
            // Made (or loaded) now, so that a certificate that cannot be had is said at once.
            app.network()
                .tls()
                .map_err(|err| io::Error::other(err.to_string()))?;
        }
        let listener = TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let shutdown = async move {
            // A dropped sender means the shell is gone: stop as well.
            let _ = stopped.await;
        };
        let task = if https {
            tokio::spawn(petstore::serve_tls(listener, app.clone(), shutdown))
        } else {
            tokio::spawn(petstore::serve(listener, app.clone(), shutdown))
        };
        tracing::info!(%addr, https, "serving the store");
        Ok(Served {
            addr,
            https,
            stop,
            task,
        })
    }

    /// Asks `serve` to shut down and waits until it has returned (or the grace period is over).
    async fn stop(self) {
        let Served {
            addr,
            stop,
            mut task,
            ..
        } = self;
        let _ = stop.send(());
        match tokio::time::timeout(GRACE, &mut task).await {
            Ok(Ok(Ok(()))) => tracing::info!(%addr, "stopped serving"),
            Ok(Ok(Err(err))) => tracing::warn!(%addr, %err, "the server stopped with an error"),
            Ok(Err(err)) => tracing::error!(%addr, %err, "the server task failed"),
            Err(_) => {
                tracing::warn!(%addr, "requests still open after {GRACE:?}; cutting them off");
                task.abort();
                let _ = task.await;
            }
        }
    }
}

/// Where the window's listener goes: `PETSTORE_BIND` when that is an IPv4 loopback address
/// (tests and power users pick the port), otherwise a free loopback port chosen by the system,
/// so the desktop app never clashes with a headless server or with its own LAN port.
pub fn window_address(bind: SocketAddr, bind_was_set: bool) -> SocketAddr {
    match bind {
        SocketAddr::V4(v4) if bind_was_set && v4.ip().is_loopback() => bind,
        _ => SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::LOCALHOST, 0)),
    }
}

/// The listeners of one `App`.
pub struct Server {
    app: App,
    window: Served,
    extra: Option<Served>,
    lan: Option<Served>,
}

impl Server {
    /// Starts the window's listener on `window_addr` and, if given, one more on `extra_addr`.
    pub async fn start(
        app: App,
        window_addr: SocketAddr,
        extra_addr: Option<SocketAddr>,
    ) -> io::Result<Server> {
        let window = Served::start(&app, window_addr, false).await?;
        let extra = match extra_addr {
            Some(addr) => match Served::start(&app, addr, false).await {
                Ok(served) => Some(served),
                Err(err) => {
                    window.stop().await;
                    return Err(io::Error::new(
                        err.kind(),
                        format!("cannot listen on {addr}: {err}"),
                    ));
                }
            },
            None => None,
        };
        Ok(Server {
            app,
            window,
            extra,
            lan: None,
        })
    }

    /// The origin the window loads the staff UI from, e.g. `http://127.0.0.1:41234`.
    pub fn window_origin(&self) -> String {
        format!("http://{}", self.window.addr)
    }

    /// Whether the window's listener or the `PETSTORE_BIND` one already uses `port`.
    pub fn serves_port(&self, port: u16) -> bool {
        [Some(&self.window), self.extra.as_ref()]
            .into_iter()
            .flatten()
            .any(|served| served.addr.port() == port)
    }

    /// The address of the LAN listener, while it runs.
    pub fn lan_addr(&self) -> Option<SocketAddr> {
        self.lan.as_ref().map(|served| served.addr)
    }

    /// Whether the LAN listener speaks HTTPS, while it runs.
    pub fn lan_https(&self) -> Option<bool> {
        self.lan.as_ref().map(|served| served.https)
    }

    /// The window's listener's address (its port was chosen at start).
    pub fn window_addr(&self) -> SocketAddr {
        self.window.addr
    }

    /// The `PETSTORE_BIND` listener's address, when there is one besides the window's.
    pub fn extra_addr(&self) -> Option<SocketAddr> {
        self.extra.as_ref().map(|served| served.addr)
    }

    /// The store being served.
    pub fn app(&self) -> &App {
        &self.app
    }

    /// Serves the store on `addr` (this PC's address on the shop's network) too. A LAN
    /// listener on another address is replaced, but only once the new one is bound: when that
    /// fails, the old one keeps running.
    pub async fn open_lan(&mut self, addr: SocketAddr, https: bool) -> io::Result<()> {
        if self.lan_addr() == Some(addr) && self.lan_https() == Some(https) {
            return Ok(());
        }
        if self.lan_addr() == Some(addr) {
            // The same port, another protocol: it must be free before it is bound again.
            self.close_lan().await;
        }
        let served = Served::start(&self.app, addr, https).await?;
        if let Some(old) = self.lan.replace(served) {
            old.stop().await;
        }
        Ok(())
    }

    /// Stops serving the LAN; devices get "connection refused" from then on.
    pub async fn close_lan(&mut self) {
        if let Some(served) = self.lan.take() {
            served.stop().await;
        }
    }

    /// Stops every listener, all at once, and waits for each `serve` to return.
    /// Returns the `App` so the caller can close the store after the last request.
    pub async fn shutdown(self) -> App {
        let Server {
            app,
            window,
            extra,
            lan,
        } = self;
        let stopping: Vec<_> = [Some(window), extra, lan]
            .into_iter()
            .flatten()
            .map(|served| tokio::spawn(served.stop()))
            .collect();
        for handle in stopping {
            let _ = handle.await;
        }
        app
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_uses_a_loopback_petstore_bind_as_given() {
        let bind: SocketAddr = "127.0.0.1:18080".parse().expect("addr");
        assert_eq!(window_address(bind, true), bind);
    }

    #[test]
    fn without_petstore_bind_the_window_takes_a_free_loopback_port() {
        let default: SocketAddr = "127.0.0.1:8080".parse().expect("addr");
        assert_eq!(
            window_address(default, false),
            "127.0.0.1:0".parse::<SocketAddr>().expect("addr")
        );
    }

    #[test]
    fn a_non_loopback_petstore_bind_leaves_the_window_on_loopback() {
        let lan: SocketAddr = "0.0.0.0:9000".parse().expect("addr");
        assert_eq!(
            window_address(lan, true),
            "127.0.0.1:0".parse::<SocketAddr>().expect("addr")
        );
    }
}
