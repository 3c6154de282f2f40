//! The open connections: how many there are, from whom, and what each is doing.
//!
//! Every accepted connection is admitted here before hyper sees a byte. There is a cap on all
//! connections (below the open-file limit, so `accept` never runs out of descriptors) and a
//! smaller cap per client (an IPv4 address or an IPv6 /64). At a cap, the oldest connection
//! that is not in the middle of a request (idle, or still sending its headers) is closed to
//! make room; if every one is busy, the new connection is closed at once, unread. So a device
//! holding hundreds of half-sent requests only ever pushes out its own stale connections, and
//! a fresh request always finds a place. [`Activity`] is what the connection's watchdog reads
//! to apply the header-read, idle and write timeouts.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use tokio::sync::Notify;

use crate::limits::client_net;

/// Milliseconds since the first call, the clock of [`Activity`].
pub fn now_ms() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    let start = START.get_or_init(Instant::now);
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// What one connection is doing, shared by its reader/writer wrapper, its requests and its
/// watchdog.
pub struct Activity {
    /// Requests whose answer is not fully sent yet.
    in_flight: AtomicUsize,
    /// When the connection last became idle (accepted, or its last answer sent).
    idle_since: AtomicU64,
    /// Whether bytes of a next request arrived since it became idle.
    started_request: AtomicBool,
    /// When a write started waiting for the client to read (0: not waiting).
    write_blocked_since: AtomicU64,
}

impl Activity {
    fn new() -> Self {
        Self {
            in_flight: AtomicUsize::new(0),
            idle_since: AtomicU64::new(now_ms()),
            started_request: AtomicBool::new(false),
            write_blocked_since: AtomicU64::new(0),
        }
    }

    pub fn is_idle(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0
    }

    /// Starts the connection afresh as idle (after a TLS handshake, whose bytes are not a
    /// request).
    pub fn fresh(&self) {
        self.started_request.store(false, Ordering::Release);
        self.idle_since.store(now_ms(), Ordering::Release);
    }

    /// Notes that bytes arrived.
    pub fn read_some(&self) {
        if self.is_idle() {
            self.started_request.store(true, Ordering::Release);
        }
    }

    /// Notes whether a write had to wait for the client.
    pub fn write_blocked(&self, blocked: bool) {
        if blocked {
            let _ = self.write_blocked_since.compare_exchange(
                0,
                now_ms().max(1),
                Ordering::AcqRel,
                Ordering::Acquire,
            );
        } else {
            self.write_blocked_since.store(0, Ordering::Release);
        }
    }

    /// Marks a request in flight until the returned guard is dropped (when its answer has
    /// been sent, or abandoned).
    pub fn begin_request(self: &Arc<Self>) -> RequestGuard {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        RequestGuard(self.clone())
    }

    /// Milliseconds idle with no request started, idle with a request half-sent, and
    /// blocked on a write; each `None` when not in that state.
    pub fn waits(&self, now: u64) -> (Option<u64>, Option<u64>, Option<u64>) {
        let blocked = match self.write_blocked_since.load(Ordering::Acquire) {
            0 => None,
            since => Some(now.saturating_sub(since)),
        };
        if !self.is_idle() {
            return (None, None, blocked);
        }
        let idle = now.saturating_sub(self.idle_since.load(Ordering::Acquire));
        if self.started_request.load(Ordering::Acquire) {
            (None, Some(idle), blocked)
        } else {
            (Some(idle), None, blocked)
        }
    }
}

/// A request in flight on a connection.
pub struct RequestGuard(Arc<Activity>);

impl Drop for RequestGuard {
    fn drop(&mut self) {
        let activity = &self.0;
        activity.started_request.store(false, Ordering::Release);
        activity.idle_since.store(now_ms(), Ordering::Release);
        activity.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

struct Entry {
    client: IpAddr,
    activity: Arc<Activity>,
    close: Arc<Notify>,
}

#[derive(Default)]
struct State {
    next: u64,
    /// Open connections, oldest first.
    open: BTreeMap<u64, Entry>,
    per_client: HashMap<IpAddr, usize>,
}

impl State {
    fn remove(&mut self, id: u64) -> Option<Entry> {
        let entry = self.open.remove(&id)?;
        if let Some(count) = self.per_client.get_mut(&entry.client) {
            *count -= 1;
            if *count == 0 {
                self.per_client.remove(&entry.client);
            }
        }
        Some(entry)
    }

    /// Closes the oldest idle connection (of `client`, if given); whether there was one.
    fn evict_oldest_idle(&mut self, client: Option<IpAddr>) -> bool {
        let victim = self
            .open
            .iter()
            .find(|(_, e)| client.is_none_or(|c| e.client == c) && e.activity.is_idle())
            .map(|(&id, _)| id);
        match victim.and_then(|id| self.remove(id)) {
            Some(entry) => {
                entry.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// The open connections and their caps.
pub struct Registry {
    state: Mutex<State>,
    cap: usize,
    per_client_cap: usize,
}

/// An admitted connection; dropping it frees its place.
pub struct Ticket {
    registry: Arc<Registry>,
    id: u64,
    pub activity: Arc<Activity>,
    /// Notified when the registry closes this connection to make room.
    pub close: Arc<Notify>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.registry.lock().remove(self.id);
    }
}

impl Registry {
    pub fn new(cap: usize, per_client_cap: usize) -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(State::default()),
            cap: cap.max(1),
            per_client_cap: per_client_cap.clamp(1, cap.max(1)),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn cap(&self) -> usize {
        self.cap
    }

    pub fn per_client_cap(&self) -> usize {
        self.per_client_cap
    }

    /// How many connections are open.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().open.len()
    }

    /// Admits a connection from `addr`, closing an idle one to make room if a cap is
    /// reached; `None` when there is no room (the caller closes the connection unread).
    pub fn admit(self: &Arc<Self>, addr: IpAddr) -> Option<Ticket> {
        let client = client_net(addr);
        let mut state = self.lock();
        if state.per_client.get(&client).copied().unwrap_or(0) >= self.per_client_cap
            && !state.evict_oldest_idle(Some(client))
        {
            return None;
        }
        if state.open.len() >= self.cap && !state.evict_oldest_idle(None) {
            return None;
        }
        let id = state.next;
        state.next += 1;
        let activity = Arc::new(Activity::new());
        let close = Arc::new(Notify::new());
        state.open.insert(
            id,
            Entry {
                client,
                activity: activity.clone(),
                close: close.clone(),
            },
        );
        *state.per_client.entry(client).or_insert(0) += 1;
        drop(state);
        Some(Ticket {
            registry: self.clone(),
            id,
            activity,
            close,
        })
    }

    /// Closes the oldest idle connection (when the process runs out of descriptors).
    pub fn shed_one(&self) -> bool {
        self.lock().evict_oldest_idle(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("address")
    }

    #[test]
    fn a_client_at_its_cap_pushes_out_its_own_oldest_idle_connection() {
        let registry = Registry::new(10, 2);
        let first = registry.admit(ip("10.0.0.1")).expect("room");
        let _second = registry.admit(ip("10.0.0.1")).expect("room");
        let _other = registry.admit(ip("10.0.0.2")).expect("room");
        let _third = registry
            .admit(ip("10.0.0.1"))
            .expect("room by closing the oldest");
        assert_eq!(registry.len(), 3);
        drop(first);
        assert_eq!(registry.len(), 3, "the closed one had already left");
    }

    #[test]
    fn a_connection_in_a_request_is_never_pushed_out_and_the_newcomer_is_refused() {
        let registry = Registry::new(10, 1);
        let busy = registry.admit(ip("10.0.0.1")).expect("room");
        let _request = busy.activity.begin_request();
        assert!(registry.admit(ip("10.0.0.1")).is_none());
        assert!(registry.admit(ip("10.0.0.2")).is_some());
    }

    #[test]
    fn the_whole_cap_pushes_out_the_oldest_idle_connection_of_anyone() {
        let registry = Registry::new(2, 2);
        let _a = registry.admit(ip("10.0.0.1")).expect("room");
        let _b = registry.admit(ip("10.0.0.2")).expect("room");
        let _c = registry.admit(ip("10.0.0.3")).expect("room");
        assert_eq!(registry.len(), 2);
    }

    #[test]
    fn addresses_of_one_ipv6_network_count_as_one_client() {
        let registry = Registry::new(10, 1);
        let first = registry.admit(ip("2001:db8::1")).expect("room");
        let _request = first.activity.begin_request();
        assert!(registry.admit(ip("2001:db8::2")).is_none());
        assert!(registry.admit(ip("2001:db8:0:1::1")).is_some());
    }
}
