//! SQLite's write-ahead log and its checkpoints, as the writer sees them: the log's length
//! after each commit ([`LogSize`], from SQLite's WAL hook, which replaces SQLite's own
//! checkpoint inside a commit), when the log is copied back into the store file
//! ([`CHECKPOINT_PAGES`], or sooner on a nearly full disk: [`due`]), the writer's own copy of
//! the rest between two groups ([`checkpoint`]), and the truncation at close. The copying beside the writer, and the
//! hand-off between that thread and the writer, are in `checkpointer`. PostgreSQL has no such
//! log: there the length stays 0 and nothing is copied.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use crate::store::db::Connection;
use crate::store::Result;

/// WAL pages (4 KiB each) after which the log is copied back into the database (a
/// checkpoint): by the checkpoint thread beside the writer on SQLite (see `checkpointer`),
/// with the writer copying only the last few pages between two groups. SQLite's default
/// is 1,000, checked inside each commit. Placing orders writes fifty to seventy pages a group,
/// most of them the same index pages again and again: a checkpoint every 1,000 pages copied
/// those pages back (with the database's fsync) every twenty groups, a tenth of the writer's
/// time. At 10,000 a checkpoint copies each hot page once for ten times as many groups; the
/// log grows to about 40 MiB between checkpoints, and is emptied at shutdown.
pub(in crate::store) const CHECKPOINT_PAGES: i32 = 10_000;

/// On a disk with less room than that, the log may take at most this share of what is free
/// (`1 / LOG_SHARE_OF_FREE`) before it is copied back. The log grows into whatever space is
/// free and starts again from its beginning only after a checkpoint: on a disk that filled up
/// (or was filled) while tills sold, freeing space would otherwise only feed the log until
/// the disk is full again, well short of `CHECKPOINT_PAGES`, and every sale would be refused
/// until a restart. Copied back early, the log reuses its own space and the freed space goes
/// to the store file, which grows by what was really sold.
const LOG_SHARE_OF_FREE: i64 = 4;

/// SQLite's page size, the default, which this store keeps.
const PAGE_BYTES: i64 = 4096;

/// Whether the log is due to be copied back after a commit: past [`CHECKPOINT_PAGES`], or
/// past its share of the free space left on the store's disk ([`LOG_SHARE_OF_FREE`]; on a
/// full disk, after every group, which is what lets the writer take sales again as soon as
/// the store file has room to grow).
pub(in crate::store) fn due(conn: &Connection, log: &LogSize) -> bool {
    let pages = log.pages();
    if pages >= CHECKPOINT_PAGES {
        return true;
    }
    if pages == 0 {
        return false;
    }
    let Some(path) = conn.lite().and_then(rusqlite::Connection::path) else {
        return false;
    };
    free_bytes(std::path::Path::new(path))
        .is_some_and(|free| i64::from(pages) * PAGE_BYTES >= free / LOG_SHARE_OF_FREE)
}

/// The bytes an unprivileged writer may still use on the disk holding `path`, if known.
#[cfg(unix)]
fn free_bytes(path: &std::path::Path) -> Option<i64> {
    let stat = rustix::fs::statvfs(path).ok()?;
    let bytes = u128::from(stat.f_bavail) * u128::from(stat.f_frsize);
    Some(i64::try_from(bytes).unwrap_or(i64::MAX))
}

#[cfg(not(unix))]
fn free_bytes(_: &std::path::Path) -> Option<i64> {
    None
}

/// The WAL's length in pages after the last commit, as SQLite reports it (0 on PostgreSQL).
#[derive(Clone, Default)]
pub(in crate::store) struct LogSize(Arc<AtomicI32>);

impl LogSize {
    pub(in crate::store) fn pages(&self) -> i32 {
        self.0.load(Ordering::Relaxed)
    }

    fn set(&self, pages: i32) {
        self.0.store(pages, Ordering::Relaxed);
    }
}

/// Follows the WAL's length after each commit. This replaces SQLite's own checkpoint hook,
/// so the log is copied back as [`CHECKPOINT_PAGES`] says, not inside a commit.
pub(in crate::store) fn watch_log(conn: &mut Connection) -> Result<LogSize> {
    let size = LogSize::default();
    if let Some(lite) = conn.lite_mut() {
        let seen = size.clone();
        lite.wal_hook(Some(move |_: &mut rusqlite::hooks::Wal, pages| {
            seen.set(pages);
            Ok(())
        }))?;
    }
    Ok(size)
}

/// Copies the WAL back into the database as far as the readers allow (a passive
/// checkpoint, as SQLite's own), between two groups: all of it when there is no checkpoint
/// thread, else the rest that thread left. The log starts again from its beginning at the
/// next commit once every page is copied.
pub(in crate::store) fn checkpoint(conn: &Connection, log: &LogSize) {
    let Some(lite) = conn.lite() else {
        return;
    };
    match lite.wal_checkpoint_v2(None::<&str>, rusqlite::wal::CheckpointMode::PASSIVE) {
        Ok(_) => log.set(0),
        Err(err) => {
            static SAID: crate::repeats::Repeats = crate::repeats::Repeats::new();
            if let Some(left_out) = SAID.now() {
                tracing::warn!(%err, left_out, "a checkpoint failed; the WAL keeps growing until one succeeds");
            }
        }
    }
}

/// Copies the whole log back and empties it as the writer closes (else it is replayed at
/// the next start).
pub(in crate::store) fn truncate(conn: &Connection) {
    if let Some(lite) = conn.lite() {
        if let Err(err) = lite.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)") {
            tracing::warn!(%err, "checkpoint at shutdown failed; the WAL is replayed at next start");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::store::{Call, Store};

    /// How many times the log has started again from its beginning (the WAL header's
    /// checkpoint sequence number, rewritten with the first commit after each restart).
    fn log_restarts(log: &std::path::Path) -> u32 {
        use std::io::Read;
        let mut header = [0u8; 16];
        std::fs::File::open(log)
            .and_then(|mut file| file.read_exact(&mut header))
            .expect("the log's header");
        u32::from_be_bytes([header[12], header[13], header[14], header[15]])
    }

    #[test]
    fn the_log_is_copied_back_and_starts_again_so_it_stops_growing() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("store.sqlite");
        let log = dir.path().join("store.sqlite-wal");
        let store = Store::open(&path).expect("a store");
        let write = |bytes: i64| {
            Call::write(&store, move |tx| {
                tx.execute("INSERT INTO filler VALUES (zeroblob(?1))", [bytes])?;
                Ok(())
            })
            .wait()
            .expect("a write")
        };
        Call::write(&store, |tx| {
            Ok(tx.execute_batch("CREATE TABLE filler (b BLOB)")?)
        })
        .wait()
        .expect("a table");
        // Each write fills the log past the checkpoint mark by itself.
        let group = i64::from(super::CHECKPOINT_PAGES) * 4096 * 11 / 10;
        for _ in 0..3 {
            let before = log_restarts(&log);
            write(group);
            // The copy runs beside the writer; small writes go on meanwhile, and one of
            // them starts the log again once every page is copied.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
            while log_restarts(&log) == before {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the log never started again"
                );
                std::thread::sleep(std::time::Duration::from_millis(10));
                write(100);
            }
        }
        let length = std::fs::metadata(&log).expect("the log").len();
        // Without checkpoints the log would hold all three large writes.
        assert!(
            length < 2 * group.unsigned_abs(),
            "the log grew to {length} bytes for writes of {group}"
        );
        store.close();
    }
}
