//! The `Host` check against DNS rebinding. A web page on the internet can point a name of its
//! own at a shop's server and make a shop browser call it, but the browser then sends that
//! name as `Host`, and such a name is always one of the public DNS: it has a dot and ends in a
//! public suffix. So a request is answered when its `Host` is
//! - an IP address (v4 or v6): a browser sends one only when it was opened at that address;
//! - a name without a dot (`counter-pc`, `shop`): the shop's own network names them, public
//!   DNS cannot;
//! - a name under a suffix that only this machine or the shop's network resolves:
//!   `.localhost`, `.local` (mDNS), `.lan`, `.home.arpa`, `.internal`;
//! - this machine's own name as the system reports it (also fully qualified);
//! - a name configured with `--allow-host` / `PETSTORE_ALLOW_HOSTS` (a shop's own DNS name,
//!   or the name tills reach a load balancer by).
//!
//! Any other is 421 `misdirected_request`, saying how to allow it. A request without `Host`
//! (HTTP/1.0) is served: a browser always sends one.

use std::future::Future;
use std::sync::OnceLock;

use axum::extract::Request;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::state::AppState;
use crate::contract::Code;

/// The name part of a `Host` value: no port, IPv6 brackets kept, no trailing dot. Case is
/// kept: every comparison below ignores it (this runs for every request: no copy is made).
fn name_of(host: &str) -> &str {
    let host = host.trim();
    if host.starts_with('[') {
        return match host.find(']') {
            Some(end) => &host[..=end],
            None => host,
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
    .trim_end_matches('.')
}

/// Whether `name` ends with `suffix`, ignoring ASCII case.
fn ends_with_ignoring_case(name: &str, suffix: &str) -> bool {
    name.len() >= suffix.len()
        && name.as_bytes()[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

/// Suffixes that public DNS never resolves: this machine's or the shop network's own.
const LOCAL_SUFFIXES: [&str; 5] = [".localhost", ".local", ".lan", ".home.arpa", ".internal"];

/// Whether a request with this `Host` is answered, given the machine's own `names` and the
/// configured `allowed` names (both compared without case).
pub fn allowed(host: &str, names: &[String], allowed: &[String]) -> bool {
    let name = name_of(host);
    if name.is_empty() || name.starts_with('.') {
        return false;
    }
    let bare = name.trim_start_matches('[').trim_end_matches(']');
    if bare.parse::<std::net::IpAddr>().is_ok() || !name.contains('.') {
        return true;
    }
    if LOCAL_SUFFIXES
        .iter()
        .any(|suffix| ends_with_ignoring_case(name, suffix))
    {
        return true;
    }
    let same = |n: &String| n.trim_end_matches('.').eq_ignore_ascii_case(name);
    names.iter().any(same) || allowed.iter().any(same)
}

/// This machine's name as the system reports it (empty when it cannot be read).
fn machine_names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let read = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .or_else(|| std::env::var("COMPUTERNAME").ok())
            .or_else(|| std::env::var("HOSTNAME").ok())
            .unwrap_or_default();
        let name = read.trim().to_ascii_lowercase();
        if name.is_empty() {
            Vec::new()
        } else {
            vec![name]
        }
    })
}

/// Refuses a request whose `Host` is not one of [`allowed`]'s; `run` answers the others.
pub async fn check<F, Fut>(s: &AppState, req: Request, run: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: Future<Output = Response>,
{
    let Some(host) = req.headers().get(header::HOST) else {
        return run(req).await;
    };
    let host = host.to_str().unwrap_or_default();
    if allowed(host, machine_names(), &s.app.settings().allow_hosts) {
        return run(req).await;
    }
    let shown: String = host.chars().take(64).collect();
    ApiError::new(
        Code::MisdirectedRequest,
        format!(
            "this server does not answer for the name {shown:?}: open it by its address or \
             this computer's name, or allow the name with --allow-host (PETSTORE_ALLOW_HOSTS)"
        ),
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn addresses_and_loopback_names_are_answered_with_or_without_a_port() {
        for host in [
            "127.0.0.1",
            "127.0.0.1:8080",
            "192.168.1.20:8080",
            "[::1]:8080",
            "[fe80::1]",
            "localhost",
            "LOCALHOST:8080",
            "till.localhost:8080",
            "localhost.",
            "[::1",
            "[FE80::1]:8443",
            "Till.LocalHost",
        ] {
            assert!(allowed(host, &[], &[]), "{host}");
        }
    }

    #[test]
    fn names_of_the_shops_own_network_are_answered() {
        for host in [
            "counter-pc",
            "Counter-PC:8080",
            "shop",
            "counter-pc.local:8080",
            "till.lan",
            "petstore.home.arpa",
            "petstore.internal:8443",
        ] {
            assert!(allowed(host, &[], &[]), "{host}");
        }
    }

    #[test]
    fn the_machines_fully_qualified_name_is_answered() {
        let own = names(&["counter-pc.shop.example"]);
        assert!(allowed("Counter-PC.shop.example:8080", &own, &[]));
        assert!(!allowed("counter-pc.shop.example.evil.example", &own, &[]));
    }

    #[test]
    fn other_names_are_refused_unless_configured() {
        let configured = names(&["petstore.shop.example"]);
        assert!(!allowed("rebind.attacker.example", &[], &configured));
        assert!(!allowed("rebind.attacker.example:8080", &[], &configured));
        assert!(!allowed("127.0.0.1.attacker.example", &[], &configured));
        assert!(!allowed("", &[], &configured));
        assert!(!allowed(":8080", &[], &configured));
        assert!(!allowed(
            "evil.example.local.attacker.example",
            &[],
            &configured
        ));
        assert!(allowed("PetStore.shop.example:8080", &[], &configured));
        assert!(!allowed("petstore.shop.example", &[], &[]));
    }
}
