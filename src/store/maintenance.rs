//! Forgetting what is no longer needed: old change events, idempotency records, the saved
//! day counts of days gone by (only today's count is ever read back), pairing codes that
//! ended, and wrong PINs and locks past their time.

use super::{events, idempotency, pairings, sign_ins, Result, Tx};
use crate::domain::staff::PIN_LOCK;

/// Saved day counts older than this many seconds are dropped (a day and a bit, so a count
/// is never dropped while its day may still be read back, whatever the time zone).
const USAGE_KEEP_SECS: i64 = 2 * 86_400;

/// Prunes old events, idempotency records, day counts, ended codes and old wrong PINs; how
/// many rows went.
pub(super) fn prune(tx: &mut Tx<'_>) -> Result<usize> {
    let now = chrono::Utc::now().timestamp();
    Ok(events::prune(tx)?
        + idempotency::prune(tx)?
        + prune_usage(tx)?
        + pairings::prune(tx, now)?
        + sign_ins::prune(tx, now, PIN_LOCK)?)
}

/// Drops the day counts of days long gone.
fn prune_usage(tx: &Tx<'_>) -> Result<usize> {
    let cutoff = chrono::Utc::now().timestamp() - USAGE_KEEP_SECS;
    Ok(tx
        .prepare_cached("DELETE FROM rate_usage WHERE day_start < ?1")?
        .execute([cutoff])?)
}

#[cfg(test)]
mod tests {
    use crate::store::Store;

    #[test]
    fn pruning_drops_day_counts_of_days_long_gone_and_keeps_today() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("store.sqlite");
        let store = Store::open(&path).expect("a store");
        let today = crate::limits::day_start(chrono::Utc::now().timestamp());
        {
            let conn = rusqlite::Connection::open(&path).expect("a connection");
            conn.execute(
                "INSERT INTO rate_usage (subject, day_start, count) VALUES
                 ('addr:192.0.2.1', ?1, 5), ('addr:192.0.2.2', ?2, 7)",
                [today - 10 * 86_400, today],
            )
            .expect("rows");
        }
        store.prune().wait().expect("pruned");
        let conn = rusqlite::Connection::open(&path).expect("a connection");
        let left: Vec<String> = conn
            .prepare("SELECT subject FROM rate_usage")
            .expect("a statement")
            .query_map([], |r| r.get(0))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("subjects");
        assert_eq!(left, vec!["addr:192.0.2.2".to_owned()]);
        store.close();
    }
}
