//! Where this app is served: each running listener's address and whether it speaks HTTPS
//! (registered by `serve` for as long as it runs), and the store's own certificate, made or
//! loaded the first time HTTPS is wanted. The pairing address is built from these: a device
//! on the shop's network needs the address of a listener it can reach, not the loopback
//! address the admin at the counter happens to use.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::tls::StoreTls;
use crate::Error;

/// A listener serving the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Listening {
    /// The address it is bound to (`0.0.0.0:8080` for every interface).
    pub addr: SocketAddr,
    /// Whether it speaks HTTPS.
    pub https: bool,
}

impl Listening {
    /// Whether devices on the network can reach it (it is not bound to loopback).
    pub fn on_network(&self) -> bool {
        !self.addr.ip().is_loopback()
    }
}

/// The app's listeners and its certificate.
pub struct Network {
    /// The folder the certificate is kept in (the store's).
    dir: PathBuf,
    next: AtomicU64,
    listeners: Mutex<Vec<(u64, Listening)>>,
    tls: Mutex<Option<Arc<StoreTls>>>,
}

impl Network {
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            next: AtomicU64::new(0),
            listeners: Mutex::new(Vec::new()),
            tls: Mutex::new(None),
        }
    }

    /// Notes a listener; it is forgotten when [`Network::forget`] is called with the id.
    pub fn register(&self, listening: Listening) -> u64 {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.lock_listeners().push((id, listening));
        id
    }

    pub fn forget(&self, id: u64) {
        self.lock_listeners().retain(|(i, _)| *i != id);
    }

    /// The running listeners, in the order they started.
    pub fn listeners(&self) -> Vec<Listening> {
        self.lock_listeners().iter().map(|(_, l)| *l).collect()
    }

    /// Whether any running listener speaks HTTPS.
    pub fn serves_https(&self) -> bool {
        self.listeners().iter().any(|l| l.https)
    }

    /// The store's certificate, loaded (or made, or renewed) on the first call.
    pub fn tls(&self) -> Result<Arc<StoreTls>, Error> {
        let mut tls = self.tls.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tls) = tls.as_ref() {
            return Ok(tls.clone());
        }
        let made = Arc::new(StoreTls::open(&self.dir, chrono::Utc::now())?);
        *tls = Some(made.clone());
        Ok(made)
    }

    /// The certificate, if this app has loaded it.
    pub fn tls_loaded(&self) -> Option<Arc<StoreTls>> {
        self.tls.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The origin (`https://192.168.1.20:8443`) a device on the shop's network opens, and
    /// whether it is HTTPS: the first listener not bound to loopback (an HTTPS one first),
    /// with an any-address bind replaced by this machine's first network address. `None`
    /// when the app listens on this PC only, or the machine has no network address.
    pub fn lan_origin(&self) -> Option<(String, bool)> {
        let mut listeners: Vec<Listening> = self
            .listeners()
            .into_iter()
            .filter(Listening::on_network)
            .collect();
        listeners.sort_by_key(|l| !l.https);
        listeners.into_iter().find_map(|l| {
            let ip = match l.addr.ip() {
                ip if ip.is_unspecified() => IpAddr::V4(first_lan_ipv4()?),
                ip => ip,
            };
            let host = SocketAddr::new(ip, l.addr.port());
            let scheme = if l.https { "https" } else { "http" };
            Some((format!("{scheme}://{host}"), l.https))
        })
    }

    fn lock_listeners(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Listening)>> {
        self.listeners.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// This machine's lowest IPv4 address another device could reach (loopback and link-local
/// left out), as the desktop app's Network panel lists them.
pub fn first_lan_ipv4() -> Option<Ipv4Addr> {
    let interfaces = if_addrs::get_if_addrs().ok()?;
    interfaces
        .iter()
        .filter_map(|i| match i.ip() {
            IpAddr::V4(ip) if !(ip.is_loopback() || ip.is_link_local() || ip.is_unspecified()) => {
                Some(ip)
            }
            _ => None,
        })
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listening(addr: &str, https: bool) -> Listening {
        Listening {
            addr: addr.parse().expect("address"),
            https,
        }
    }

    #[test]
    fn a_loopback_listener_alone_gives_no_network_address() {
        let network = Network::new(PathBuf::from("/nonexistent"));
        let id = network.register(listening("127.0.0.1:8080", false));
        assert_eq!(network.lan_origin(), None);
        network.forget(id);
        assert!(network.listeners().is_empty());
    }

    #[test]
    fn a_listener_on_a_network_address_is_used_and_https_is_preferred() {
        let network = Network::new(PathBuf::from("/nonexistent"));
        network.register(listening("127.0.0.1:8080", true));
        network.register(listening("192.168.1.20:8080", false));
        assert_eq!(
            network.lan_origin(),
            Some(("http://192.168.1.20:8080".into(), false))
        );
        network.register(listening("192.168.1.20:8443", true));
        assert_eq!(
            network.lan_origin(),
            Some(("https://192.168.1.20:8443".into(), true))
        );
    }
}
