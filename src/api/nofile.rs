//! The open-file limit and the connection caps taken from it.
//!
//! A desktop session usually starts programs with a soft limit of 1,024 open files and a far
//! higher hard limit. [`raise`] lifts the soft limit to the hard one at start. The caps leave
//! [`RESERVED_FILES`] descriptors for the store's files, the log and the listener, so that
//! `accept` never fails for lack of descriptors before the cap refuses a connection.
//!
//! Windows has no such limit for sockets and files (a process may hold millions of
//! handles): there the caps are taken from [`MOST_CONNECTIONS`] alone.

/// Descriptors kept back from connections (SQLite's files per connection, logs, listeners).
pub const RESERVED_FILES: u64 = 128;
/// Most connections at once, whatever the limit.
const MOST_CONNECTIONS: u64 = 8192;

/// Raises the soft open-file limit to the hard limit (once); the soft limit in force after.
#[cfg(unix)]
pub fn raise() -> u64 {
    use std::sync::OnceLock;
    static LIMIT: OnceLock<u64> = OnceLock::new();
    *LIMIT.get_or_init(|| match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(err) => {
            tracing::warn!(%err, "cannot raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft)
        }
    })
}

/// The limit that leaves room for [`MOST_CONNECTIONS`]: Windows sets none to raise.
#[cfg(not(unix))]
pub fn raise() -> u64 {
    MOST_CONNECTIONS + RESERVED_FILES
}

/// The cap on open connections.
pub fn connection_cap() -> usize {
    let limit = raise();
    let cap = limit
        .saturating_sub(RESERVED_FILES)
        .clamp(16, MOST_CONNECTIONS);
    usize::try_from(cap).unwrap_or(16)
}

/// The cap on one client's open connections: a quarter of all, at least 32.
pub fn per_client_cap() -> usize {
    let cap = connection_cap();
    (cap / 4).max(32).min(cap)
}
