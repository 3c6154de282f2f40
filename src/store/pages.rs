//! What the store remembers about its lists between requests, exact because the writer
//! tells it about every change: a version per table, bumped around each commit that
//! touched the table; where each page of a list ended (so the next `offset` starts from
//! that row instead of walking every skipped one); each list's total; and whole answers of
//! small reads (a pet by id), so a repeated read is answered without a reader thread.
//!
//! Everything remembered is tagged with the versions of the tables it was read from, and is
//! used only while those versions are unchanged. A commit makes a table's version odd
//! before `COMMIT` and even after it, and a read keeps what it saw only if the versions
//! were even and the same before and after its statement: so nothing read while a commit
//! was landing is ever kept, and nothing kept outlives a change.
//!
//! SQLite only, one process: it is on only for a store opened with the serving lock, whose
//! writer thread is then the only writer of the lists' tables (the lock refuses a second
//! server; the command line writes only keys, which no list here covers). A store opened
//! without the lock, and the PostgreSQL engine shared by several processes, remember
//! nothing.

use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The tables whose versions are kept; a list reading any other table remembers nothing.
pub const TABLES: [&str; 6] = [
    "pets",
    "categories",
    "orders",
    "inventory",
    "care_latest",
    "store_profile",
];

/// Most lists (query shapes) remembered at once; past it the memory starts afresh.
const SHAPES_MAX: usize = 512;
/// Most page starts remembered per list.
const STARTS_MAX: usize = 4096;
/// Most records in the whole answers remembered (a pet is about 100 bytes).
const ANSWERS_WEIGHT_MAX: usize = 20_000;

/// The versions of some tables, summed: it changes whenever one of them changes, and is
/// odd while a commit to one of them is landing (at most one commit lands at a time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version(u64);

impl Version {
    /// Whether no commit to these tables was landing when it was read.
    fn settled(self) -> bool {
        self.0 & 1 == 0
    }
}

/// Which tables a list reads, as a set of bits over [`TABLES`]; `None` when it reads a
/// table whose changes are not counted.
#[derive(Debug, Clone, Copy)]
pub struct Tables(Option<u8>);

impl Tables {
    pub fn of(names: &[&str]) -> Self {
        let mut bits = 0u8;
        for name in names {
            match TABLES.iter().position(|t| t == name) {
                Some(i) => bits |= 1 << i,
                None => return Self(None),
            }
        }
        Self(Some(bits))
    }
}

#[derive(Default)]
struct List {
    version: Option<Version>,
    total: Option<i64>,
    /// offset → the sort key of the row just before it.
    starts: BTreeMap<i64, i64>,
}

/// The store's memory of its lists; shared by the writer and the readers.
#[derive(Default)]
pub struct Pages {
    /// Off for a store opened without the serving lock: another program may write to it.
    enabled: bool,
    versions: [AtomicU64; TABLES.len()],
    /// Tables changed by the group being written, as bits over [`TABLES`].
    dirty: AtomicU64,
    lists: Mutex<HashMap<String, List>>,
    answers: Mutex<Answers>,
}

#[derive(Default)]
struct Answers {
    by_key: HashMap<String, (Version, Arc<dyn Any + Send + Sync>)>,
    /// Records held in `by_key`, plus one per answer.
    weight: usize,
}

impl Pages {
    /// `enabled` only for a store whose writer is the only one (the serving lock held):
    /// otherwise nothing is remembered.
    pub fn new(enabled: bool) -> Arc<Self> {
        Arc::new(Self {
            enabled,
            ..Self::default()
        })
    }

    /// The writer changed a row of `table` (from SQLite's update hook).
    pub fn touched(&self, table: &str) {
        if let Some(i) = TABLES.iter().position(|t| *t == table) {
            self.dirty.fetch_or(1 << i, Ordering::Relaxed);
        }
    }

    /// Just before `COMMIT`: marks the changed tables as changing; returns them for
    /// [`Pages::landed`].
    pub fn landing(&self) -> u64 {
        let dirty = self.dirty.swap(0, Ordering::AcqRel);
        self.bump(dirty);
        dirty
    }

    /// Just after `COMMIT` (or its failure): the changed tables have their new version.
    pub fn landed(&self, dirty: u64) {
        self.bump(dirty);
    }

    fn bump(&self, dirty: u64) {
        for (i, version) in self.versions.iter().enumerate() {
            if dirty & (1 << i) != 0 {
                version.fetch_add(1, Ordering::AcqRel);
            }
        }
    }

    /// The current version of `tables`, or `None` when nothing may be remembered about
    /// them (a table not counted, or a commit landing).
    pub fn version(&self, tables: Tables) -> Option<Version> {
        if !self.enabled {
            return None;
        }
        let bits = tables.0?;
        let sum = self
            .versions
            .iter()
            .enumerate()
            .filter(|(i, _)| bits & (1 << i) != 0)
            .map(|(_, v)| v.load(Ordering::Acquire))
            .fold(0u64, u64::wrapping_add);
        // Each table's version is even at rest: an odd one makes the sum odd only if it is
        // the only one landing, and one commit at a time lands, so odd means "landing".
        let odd = self
            .versions
            .iter()
            .enumerate()
            .any(|(i, v)| bits & (1 << i) != 0 && v.load(Ordering::Acquire) & 1 == 1);
        (!odd).then_some(Version(sum)).filter(|v| v.settled())
    }

    /// The nearest remembered start at or before `offset` of the list `shape`: (its
    /// offset, the sort key of the row before it).
    pub fn start_before(&self, shape: &str, version: Version, offset: i64) -> Option<(i64, i64)> {
        let lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        let list = lists.get(shape).filter(|l| l.version == Some(version))?;
        list.starts
            .range(..=offset)
            .next_back()
            .map(|(&at, &key)| (at, key))
    }

    /// The list's total, if remembered at this version.
    pub fn total(&self, shape: &str, version: Version) -> Option<i64> {
        let lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        lists
            .get(shape)
            .filter(|l| l.version == Some(version))
            .and_then(|l| l.total)
    }

    /// Remembers what one read of the list `shape` learnt at `version`: page starts
    /// (offset, key of the row before) and the total.
    pub fn learn(&self, shape: &str, version: Version, starts: &[(i64, i64)], total: Option<i64>) {
        if starts.is_empty() && total.is_none() {
            return;
        }
        let mut lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        if lists.len() >= SHAPES_MAX && !lists.contains_key(shape) {
            lists.clear();
        }
        let list = lists.entry(shape.to_owned()).or_default();
        if list.version != Some(version) {
            *list = List {
                version: Some(version),
                ..List::default()
            };
        }
        if list.starts.len() + starts.len() > STARTS_MAX {
            list.starts.clear();
        }
        list.starts.extend(starts.iter().copied());
        if total.is_some() {
            list.total = total;
        }
    }

    /// A whole answer remembered for `key` at `version`.
    pub fn answer<T: Send + Sync + 'static>(&self, key: &str, version: Version) -> Option<Arc<T>> {
        let answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        let (at, value) = answers.by_key.get(key)?;
        if *at != version {
            return None;
        }
        value.clone().downcast::<T>().ok()
    }

    /// Remembers a whole answer of `records` records read at `version`.
    pub fn keep_answer<T: Send + Sync + 'static>(
        &self,
        key: String,
        version: Version,
        records: usize,
        value: Arc<T>,
    ) {
        let mut answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        if answers.weight + records + 1 > ANSWERS_WEIGHT_MAX {
            answers.by_key.clear();
            answers.weight = 0;
        }
        if answers.by_key.insert(key, (version, value)).is_none() {
            answers.weight += records + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_is_unusable_while_a_commit_lands_and_new_after_it() {
        let pages = Pages::new(true);
        let pets = Tables::of(&["pets"]);
        let before = pages.version(pets).expect("settled");
        pages.touched("pets");
        pages.touched("events");
        let dirty = pages.landing();
        assert_eq!(pages.version(pets), None, "landing");
        pages.landed(dirty);
        let after = pages.version(pets).expect("settled again");
        assert_ne!(before, after);
        assert_eq!(
            pages.version(Tables::of(&["orders"])),
            Some(Version(0)),
            "an untouched table keeps its version"
        );
        assert_eq!(pages.version(Tables::of(&["events"])), None, "not counted");
    }

    #[test]
    fn what_was_learnt_at_one_version_is_not_used_at_another() {
        let pages = Pages::new(true);
        let v0 = pages.version(Tables::of(&["pets"])).expect("settled");
        pages.learn("pets", v0, &[(50, 50), (100, 100)], Some(1000));
        assert_eq!(pages.start_before("pets", v0, 120), Some((100, 100)));
        assert_eq!(pages.start_before("pets", v0, 20), None);
        assert_eq!(pages.total("pets", v0), Some(1000));
        pages.touched("pets");
        let dirty = pages.landing();
        pages.landed(dirty);
        let v1 = pages.version(Tables::of(&["pets"])).expect("settled");
        assert_eq!(pages.start_before("pets", v1, 120), None);
        assert_eq!(pages.total("pets", v1), None);
        pages.keep_answer("a".into(), v0, 1, Arc::new(7i64));
        assert_eq!(pages.answer::<i64>("a", v0).as_deref(), Some(&7));
        assert_eq!(pages.answer::<i64>("a", v1), None);
    }
}
