//! The transaction handed to each request: the connection inside the group's transaction
//! (see `writer::group` for how a request's failure undoes its changes alone), the staff
//! member whose session made the request (filled from `call`'s task-local), and the change
//! events the request emits. An event is written to the events table with the request's
//! changes, so it is undone with them, and published only once the group commits.
//!
//! Where a request's undo pages are kept is the writer's choice, per group (see
//! `writer::group`; the tests below).

use serde::Serialize;

use super::db::Connection;
use super::{Result, StoreError};
use crate::domain::event::{Event, EventData};
use crate::domain::staff::MemberRef;
use crate::domain::time;

/// A write in progress: the connection inside the group's transaction, plus the change events
/// the request emits.
pub struct Tx<'c> {
    conn: &'c Connection,
    events: Vec<Event>,
    /// The staff member whose session made this request, if one did (see `call`).
    member: Option<MemberRef>,
}

impl std::ops::Deref for Tx<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Tx<'_> {
    /// The staff member whose session made this request, if one did.
    pub fn member(&self) -> Option<&MemberRef> {
        self.member.as_ref()
    }

    pub(super) fn set_member(&mut self, member: Option<MemberRef>) {
        self.member = member;
    }

    /// Records a change event; subscribers receive it once the group commits.
    pub fn emit<T: Serialize>(&mut self, kind: &str, record: &T) -> Result<()> {
        let data = EventData::of(record)
            .map_err(|e| StoreError::Internal(format!("cannot encode an event: {e}")))?;
        let at = time::now();
        let key_name = self.member.as_ref().map(|m| m.name.clone());
        let staff_id = self.member.as_ref().map(|m| m.id);
        let id = super::events::insert(self.conn, kind, &at, &data, key_name.as_deref(), staff_id)?;
        self.events.push(Event {
            id,
            kind: kind.to_owned(),
            at,
            data,
            key_name,
            staff_id,
        });
        Ok(())
    }
}

impl<'c> Tx<'c> {
    /// A request's transaction on `conn`.
    pub(super) fn new(conn: &'c Connection) -> Self {
        Self {
            conn,
            events: Vec::new(),
            member: None,
        }
    }

    /// The events the request emitted, to publish once the group commits.
    pub(super) fn into_events(self) -> Vec<Event> {
        self.events
    }
}

#[cfg(test)]
mod tests {
    use crate::store::{Call, Store};

    /// The temporary files SQLite has open in this process: named `etilqs_…`, or nameless
    /// (`O_TMPFILE`, shown as `/var/tmp/#inode (deleted)`).
    #[cfg(target_os = "linux")]
    fn temporary_files() -> Vec<String> {
        std::fs::read_dir("/proc/self/fd")
            .expect("this process's files")
            .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
            .map(|target| target.display().to_string())
            .filter(|target| target.contains("etilqs_") || target.contains("/#"))
            .collect()
    }

    /// Elsewhere the files are not looked at.
    #[cfg(not(target_os = "linux"))]
    fn temporary_files() -> Vec<String> {
        Vec::new()
    }

    /// A table of `pages` rows, each filling a page of its own.
    fn filler(store: &Store, pages: u32) {
        Call::write(store, move |tx| {
            tx.execute_batch(&format!(
                "CREATE TABLE filler (b BLOB);
                 WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < {pages})
                 INSERT INTO filler SELECT zeroblob(3000) FROM n;"
            ))?;
            Ok(())
        })
        .wait()
        .expect("the filler table");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_request_changing_twenty_five_pages_keeps_its_undo_pages_in_memory() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let store = Store::open(&dir.path().join("store.sqlite")).expect("a store");
        filler(&store, 25);
        // 25 pages of undo (100 KiB) is past SQLite's default of 64 KiB before the
        // sub-journal goes to a temporary file, and within this build's 120 KiB.
        // (Other tests in this process may have temporary files of their own open.)
        let opened = Call::write(&store, |tx| {
            let before = temporary_files();
            tx.execute("UPDATE filler SET b = zeroblob(3001)", [])?;
            let mut after = temporary_files();
            after.retain(|file| !before.contains(file));
            Ok(after)
        })
        .wait()
        .expect("a write");
        assert!(opened.is_empty(), "the request opened {opened:?}");
        store.close();
    }

    /// A request marked as changing many pages, whose undo pages outgrow the spill size
    /// SQLite was built with (120 KiB, `.cargo/config.toml`), keeps them in memory, and
    /// commits. (Moved to a temporary file, they cost two system calls a page for every
    /// later request of the same group: a fifth of the writer's time on 3-line sales.)
    #[test]
    fn a_request_changing_more_pages_than_the_buffer_holds_commits_without_a_temporary_file() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let store = Store::open(&dir.path().join("store.sqlite")).expect("a store");
        filler(&store, 200);
        let (changed, opened) = Call::write(&store, |tx| {
            let before = temporary_files();
            let changed = tx.execute("UPDATE filler SET b = zeroblob(3001)", [])?;
            let mut after = temporary_files();
            after.retain(|file| !before.contains(file));
            Ok((changed, after))
        })
        .changing_many_pages()
        .wait()
        .expect("a write of 200 pages (800 KiB of undo)");
        assert_eq!(changed, 200);
        assert!(opened.is_empty(), "the request opened {opened:?}");
        let rewritten = Call::read(&store, |conn| {
            Ok(conn
                .prepare_cached("SELECT COUNT(*) FROM filler WHERE length(b) = 3001")?
                .query_row([], |row| row.get::<_, i64>(0))?)
        })
        .wait()
        .expect("a read");
        assert_eq!(rewritten, 200);
        store.close();
    }
}
