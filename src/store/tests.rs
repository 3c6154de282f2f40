//! The store with more than one writer: two `Store`s on one file, as two programs (or,
//! later, two servers on one database) would be. Each test would fail if the behaviour it
//! names went back to depending on a single writer.

use std::path::Path;
use std::sync::{Arc, Barrier};

use super::usage::UsageDelta;
use super::{Store, StoreError};
use crate::domain::category::NewCategory;
use crate::domain::idempotency::{Answer, Scope};
use crate::domain::inventory::{Adjustment, InventoryUpdate};
use crate::domain::order::NewOrder;
use crate::domain::pet::{NewPet, PetStatus};
use crate::domain::query::Page;
use crate::domain::{DomainError, Precondition};

fn two_stores(dir: &Path) -> (Store, Store) {
    let path = dir.join("store.sqlite");
    let a = Store::open(&path).unwrap();
    let b = Store::open(&path).unwrap();
    (a, b)
}

/// A pet with `stock` units, made through `store`.
fn pet_with_stock(store: &Store, name: &str, stock: i64) -> i64 {
    let category = store
        .categories()
        .create(NewCategory {
            name: format!("{name} kind"),
            description: None,
        })
        .wait()
        .unwrap();
    let pet = store
        .pets()
        .create(NewPet {
            status: Some(PetStatus::Available),
            ..NewPet::named(name, category.id)
        })
        .wait()
        .unwrap();
    if stock > 0 {
        let update = InventoryUpdate {
            quantity: stock,
            reason: None,
        };
        store
            .inventory()
            .set(pet.id, update, None, Precondition::None)
            .wait()
            .unwrap();
    }
    pet.id
}

/// Runs `work(store, n)` on `per_store` threads for each store, all released at once.
fn at_once<T: Send + 'static>(
    stores: [&Store; 2],
    per_store: usize,
    work: impl Fn(&Store, usize) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let work = Arc::new(work);
    let barrier = Arc::new(Barrier::new(per_store * 2));
    let threads: Vec<_> = stores
        .iter()
        .flat_map(|store| std::iter::repeat_n((*store).clone(), per_store))
        .enumerate()
        .map(|(n, store)| {
            let (work, barrier) = (work.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                work(&store, n)
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

fn close(stores: [Store; 2]) {
    for store in stores {
        store.close();
    }
}

#[test]
fn adjustments_from_two_stores_at_once_lose_no_update_and_the_history_adds_up() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let pet = pet_with_stock(&a, "Rex", 100);
    let results = at_once([&a, &b], 12, move |store, n| {
        let delta = if n % 3 == 0 { -2 } else { 3 };
        let adjustment = Adjustment {
            delta,
            reason: None,
        };
        store
            .inventory()
            .adjust(pet, adjustment, None)
            .wait()
            .map(|_| delta)
    });
    let expected: i64 = 100 + results.iter().map(|r| *r.as_ref().unwrap()).sum::<i64>();
    let item = b.inventory().get(pet).wait().unwrap();
    assert_eq!(item.quantity, expected);
    let history = a
        .inventory()
        .history(
            pet,
            Page {
                limit: 500,
                offset: 0,
                after: None,
            },
        )
        .wait()
        .unwrap();
    assert_eq!(history.items.iter().map(|c| c.delta).sum::<i64>(), expected);
    // Every change saw the count left by the one before it: no two ended on a count computed
    // from the same starting point.
    let mut afters: Vec<i64> = history.items.iter().map(|c| c.quantity_after).collect();
    afters.dedup();
    assert_eq!(
        history.items.iter().rev().fold(0, |count, c| {
            assert_eq!(
                count + c.delta,
                c.quantity_after,
                "entry {c:?} does not follow on"
            );
            c.quantity_after
        }),
        expected
    );
    close([a, b]);
}

#[test]
fn a_stock_change_applies_to_the_count_as_it_is_when_it_runs_not_as_it_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let pet = pet_with_stock(&a, "Tom", 10);
    // `a` read 10; `b` then sells 4; `a`'s adjustment of +1 must give 7, not 11.
    assert_eq!(a.inventory().get(pet).wait().unwrap().quantity, 10);
    let order = NewOrder {
        pet_id: pet,
        quantity: 4,
        ship_date: None,
    };
    b.orders().place(order, None).wait().unwrap();
    let adjustment = Adjustment {
        delta: 1,
        reason: None,
    };
    let item = a.inventory().adjust(pet, adjustment, None).wait().unwrap();
    assert_eq!(item.quantity, 7);
    close([a, b]);
}

#[test]
fn two_stores_selling_the_last_units_at_once_sell_each_unit_once() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let pet = pet_with_stock(&a, "Kit", 10);
    let results = at_once([&a, &b], 15, move |store, _| {
        let order = NewOrder {
            pet_id: pet,
            quantity: 1,
            ship_date: None,
        };
        store.orders().place(order, None).wait()
    });
    let sold = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(sold, 10);
    for refused in results.iter().filter_map(|r| r.as_ref().err()) {
        assert!(
            matches!(
                refused,
                StoreError::Domain(
                    DomainError::InsufficientStock { .. } | DomainError::PetNotAvailable { .. }
                )
            ),
            "unexpected refusal: {refused:?}"
        );
    }
    let item = a.inventory().get(pet).wait().unwrap();
    assert_eq!(item.quantity, 0);
    assert_eq!(item.status, PetStatus::Pending);
    close([a, b]);
}

#[test]
fn one_idempotency_key_sent_to_two_stores_at_once_acts_once_and_replays_its_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let pet = pet_with_stock(&a, "Bo", 20);
    let results = at_once([&a, &b], 6, move |store, _| {
        let order = NewOrder {
            pet_id: pet,
            quantity: 2,
            ship_date: None,
        };
        let scope = Scope {
            key_id: 1,
            key: "till-1-sale-1".into(),
            request_hash: "h".into(),
        };
        store
            .orders()
            .place(order, None)
            .once(Some(scope))
            .wait()
            .unwrap()
    });
    let fresh: Vec<_> = results
        .iter()
        .filter_map(|r| match r {
            Answer::Fresh(order) => Some(serde_json::to_string(order).unwrap()),
            Answer::Replayed(_) => None,
        })
        .collect();
    assert_eq!(fresh.len(), 1, "acted {} times", fresh.len());
    for answer in &results {
        if let Answer::Replayed(json) = answer {
            assert_eq!(json, &fresh[0]);
        }
    }
    assert_eq!(a.inventory().get(pet).wait().unwrap().quantity, 18);
    close([a, b]);
}

#[test]
fn an_idempotency_key_is_claimed_before_acting_and_the_claim_fails_with_the_change() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let pet = pet_with_stock(&a, "Zed", 1);
    let scope = Scope {
        key_id: 1,
        key: "k".into(),
        request_hash: "h".into(),
    };
    let order = |quantity| NewOrder {
        pet_id: pet,
        quantity,
        ship_date: None,
    };
    // A failed request leaves no claim behind: the same key may be retried.
    let failed = a
        .orders()
        .place(order(5), None)
        .once(Some(scope.clone()))
        .wait();
    assert!(matches!(
        failed,
        Err(StoreError::Domain(DomainError::InsufficientStock { .. }))
    ));
    let first = b
        .orders()
        .place(order(1), None)
        .once(Some(scope.clone()))
        .wait();
    assert!(matches!(first, Ok(Answer::Fresh(_))));
    // Another request under the same key is refused without acting.
    let other = Scope {
        request_hash: "other".into(),
        ..scope.clone()
    };
    let reused = a.orders().place(order(1), None).once(Some(other)).wait();
    assert!(matches!(
        reused,
        Err(StoreError::Domain(DomainError::IdempotencyKeyReused))
    ));
    close([a, b]);
}

#[test]
fn a_category_name_raced_by_two_stores_is_created_once_and_refused_as_duplicate_name() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let results = at_once([&a, &b], 8, |store, n| {
        let name = if n % 2 == 0 { "Parrots" } else { "PARROTS" };
        store
            .categories()
            .create(NewCategory {
                name: name.into(),
                description: None,
            })
            .wait()
    });
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
    for refused in results.iter().filter_map(|r| r.as_ref().err()) {
        assert!(
            matches!(refused, StoreError::Domain(DomainError::DuplicateName(_))),
            "unexpected refusal: {refused:?}"
        );
    }
    close([a, b]);
}

#[test]
fn any_unique_constraint_violation_is_a_conflict_never_an_internal_error() {
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    conn.execute_batch("CREATE TABLE t (x UNIQUE); INSERT INTO t VALUES (1);")
        .unwrap();
    let err = StoreError::from(conn.execute("INSERT INTO t VALUES (1)", []).unwrap_err());
    assert!(
        matches!(err, StoreError::Domain(DomainError::Conflict(_))),
        "{err:?}"
    );
}

#[test]
fn usage_saved_by_two_stores_adds_up_and_a_new_day_starts_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let delta = |day_start, served| UsageDelta {
        subject: "key:7".into(),
        day_start,
        served,
    };
    at_once([&a, &b], 5, move |store, _| {
        store.usage().add(vec![delta(86_400, 3)]).wait().unwrap()
    });
    assert_eq!(
        a.usage().load(86_400).wait().unwrap(),
        vec![("key:7".to_owned(), 86_400, 30)]
    );
    // A late save of yesterday's requests changes nothing; today's start at their count.
    b.usage().add(vec![delta(0, 9)]).wait().unwrap();
    assert_eq!(a.usage().load(86_400).wait().unwrap()[0].2, 30);
    b.usage().add(vec![delta(172_800, 4)]).wait().unwrap();
    assert_eq!(
        a.usage().load(172_800).wait().unwrap(),
        vec![("key:7".to_owned(), 172_800, 4)]
    );
    close([a, b]);
}

#[test]
fn events_written_by_two_stores_come_out_in_commit_order_so_a_follower_misses_none() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let pet = pet_with_stock(&a, "Ivy", 1);
    let follower = a.clone();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopped = stop.clone();
    // A follower that only ever asks for events after the last id it saw, as `/events` does.
    let follow = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut last = 0;
        loop {
            let done = stopped.load(std::sync::atomic::Ordering::SeqCst);
            for event in follower.events().since(last, 1000).wait().unwrap() {
                assert!(event.id > last);
                last = event.id;
                seen.push(event.id);
            }
            if done {
                return seen;
            }
        }
    });
    at_once([&a, &b], 6, move |store, _| {
        for _ in 0..5 {
            let adjustment = Adjustment {
                delta: 1,
                reason: None,
            };
            store
                .inventory()
                .adjust(pet, adjustment, None)
                .wait()
                .unwrap();
        }
    });
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let seen = follow.join().unwrap();
    let all: Vec<i64> = b
        .events()
        .since(0, 10_000)
        .wait()
        .unwrap()
        .into_iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(seen, all, "the follower missed events");
    close([a, b]);
}

#[test]
fn stores_opened_at_once_on_a_new_file_migrate_it_once() {
    for _round in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("store.sqlite");
        let barrier = Arc::new(Barrier::new(6));
        let threads: Vec<_> = (0..6)
            .map(|_| {
                let (path, barrier) = (path.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    Store::open(&path)
                })
            })
            .collect();
        let stores: Vec<Store> = threads
            .into_iter()
            .map(|t| t.join().unwrap().unwrap())
            .collect();
        let versions: Vec<i64> = rusqlite::Connection::open(&path)
            .unwrap()
            .prepare("SELECT version FROM schema_migrations ORDER BY version")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(versions, super::migrate::versions());
        for store in stores {
            store.close();
        }
    }
}

/// Makes `store`'s writer connection sell `units` of every pet behind the back of the next
/// order placed, the moment that order's row is written: what another writer committing
/// between the order's read of the stock and its write of the stock would do.
fn sell_behind_the_back_of_orders(store: &Store, units: i64) {
    super::Call::write(store, move |tx| {
        tx.execute_batch(&format!(
            "CREATE TEMP TRIGGER behind_the_back AFTER INSERT ON main.orders BEGIN
                 UPDATE inventory SET quantity = quantity - {units} WHERE pet_id = NEW.pet_id;
             END;"
        ))?;
        Ok(())
    })
    .wait()
    .unwrap();
}

#[test]
fn an_order_takes_its_units_from_the_count_as_it_is_then_not_as_it_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let pet = pet_with_stock(&a, "Max", 10);
    sell_behind_the_back_of_orders(&a, 3);
    let order = NewOrder {
        pet_id: pet,
        quantity: 2,
        ship_date: None,
    };
    a.orders().place(order, None).wait().unwrap();
    // 10 read, 3 sold in between, 2 ordered: 5 left (a read-then-write would say 8).
    assert_eq!(b.inventory().get(pet).wait().unwrap().quantity, 5);
    close([a, b]);
}

#[test]
fn an_order_whose_units_went_in_between_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let pet = pet_with_stock(&a, "Sam", 4);
    sell_behind_the_back_of_orders(&a, 3);
    let order = NewOrder {
        pet_id: pet,
        quantity: 2,
        ship_date: None,
    };
    let refused = a.orders().place(order, None).wait();
    assert!(
        matches!(
            refused,
            Err(StoreError::Domain(DomainError::InsufficientStock {
                available: 1,
                requested: 2,
                ..
            }))
        ),
        "{refused:?}"
    );
    let orders = b
        .orders()
        .list(crate::domain::query::OrderQuery::default())
        .wait()
        .unwrap();
    assert_eq!(orders.total, 0);
    assert_eq!(b.inventory().get(pet).wait().unwrap().quantity, 4);
    close([a, b]);
}

/// Writes an idempotency record as another request would have left it.
fn record_claim(store: &Store, scope: &Scope, answer: Option<&str>, age_secs: i64) {
    let (scope, answer) = (scope.clone(), answer.map(str::to_owned));
    super::Call::write(store, move |tx| {
        tx.execute(
            "INSERT INTO idempotency_records (key_id, idem_key, request_hash, answer, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            rusqlite::params![
                scope.key_id,
                scope.key,
                scope.request_hash,
                answer,
                chrono::Utc::now().timestamp() - age_secs
            ],
        )?;
        Ok(())
    })
    .wait()
    .unwrap();
}

#[test]
fn a_key_claimed_by_a_request_still_in_progress_is_not_acted_on_again() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let pet = pet_with_stock(&a, "Pip", 5);
    let scope = Scope {
        key_id: 1,
        key: "k".into(),
        request_hash: "h".into(),
    };
    record_claim(&b, &scope, None, 0);
    let order = NewOrder {
        pet_id: pet,
        quantity: 1,
        ship_date: None,
    };
    let answer = a.orders().place(order, None).once(Some(scope)).wait();
    assert!(
        matches!(
            answer,
            Err(StoreError::Domain(DomainError::IdempotencyInProgress))
        ),
        "{answer:?}"
    );
    assert_eq!(a.inventory().get(pet).wait().unwrap().quantity, 5);
    close([a, b]);
}

#[test]
fn an_expired_idempotency_record_is_claimed_again_and_acts() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let pet = pet_with_stock(&a, "Ned", 5);
    let scope = Scope {
        key_id: 1,
        key: "k".into(),
        request_hash: "old".into(),
    };
    record_claim(&b, &scope, Some("{}"), super::idempotency::TTL_SECS + 1);
    let order = NewOrder {
        pet_id: pet,
        quantity: 1,
        ship_date: None,
    };
    let fresh = Scope {
        request_hash: "new".into(),
        ..scope
    };
    let answer = a.orders().place(order, None).once(Some(fresh)).wait();
    assert!(matches!(answer, Ok(Answer::Fresh(_))), "{answer:?}");
    assert_eq!(a.inventory().get(pet).wait().unwrap().quantity, 4);
    close([a, b]);
}

fn waiting_pairing(expires_at: i64) -> crate::domain::pairing::WaitingPairing {
    crate::domain::pairing::WaitingPairing {
        key: crate::domain::key::NewKey {
            name: "till 2".into(),
            role: crate::domain::key::Role::Pos,
            plan: crate::limits::Plan::Pro,
            custom: None,
        },
        expires_at,
    }
}

#[test]
fn a_pairing_code_opened_by_one_store_is_redeemed_by_the_other_once_even_when_raced() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let opened = a
        .pairings()
        .open("hash-1".into(), waiting_pairing(1600), 1000, 100)
        .wait()
        .unwrap();
    assert!(opened);
    assert_eq!(
        b.pairings().find("hash-1".into(), 1000).wait().unwrap(),
        Some(waiting_pairing(1600))
    );
    let taken = at_once([&a, &b], 4, |store, _| {
        store
            .pairings()
            .redeem("hash-1".into(), 1001)
            .wait()
            .unwrap()
    });
    assert_eq!(taken.iter().filter(|t| t.is_some()).count(), 1, "{taken:?}");
    assert_eq!(
        a.pairings().find("hash-1".into(), 1001).wait().unwrap(),
        None
    );
    close([a, b]);
}

#[test]
fn a_code_already_waiting_is_not_stored_twice_and_an_ended_one_is_not_redeemed() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let open = |store: &Store, hash: &str, expires_at, now| {
        store
            .pairings()
            .open(hash.into(), waiting_pairing(expires_at), now, 100)
            .wait()
            .unwrap()
    };
    assert!(open(&a, "same", 1600, 1000));
    assert!(!open(&b, "same", 1700, 1100), "the hash is taken");
    assert_eq!(
        a.pairings().find("same".into(), 1100).wait().unwrap(),
        Some(waiting_pairing(1600)),
        "the first one stays as it was"
    );
    assert_eq!(
        b.pairings().redeem("same".into(), 1600).wait().unwrap(),
        None
    );
    assert!(
        open(&a, "same", 2200, 1600),
        "ended codes go when a new one opens"
    );
    close([a, b]);
}

#[test]
fn at_most_the_cap_of_codes_wait_and_the_ones_ending_first_go() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    for i in 0..5 {
        let store = if i % 2 == 0 { &a } else { &b };
        let hash = format!("code-{i}");
        assert!(store
            .pairings()
            .open(hash, waiting_pairing(2000 + i), 1000 + i, 3)
            .wait()
            .unwrap());
    }
    let waiting: Vec<bool> = (0..5)
        .map(|i| {
            a.pairings()
                .find(format!("code-{i}"), 1005)
                .wait()
                .unwrap()
                .is_some()
        })
        .collect();
    assert_eq!(waiting, [false, false, true, true, true]);
    close([a, b]);
}

#[test]
fn wrong_pins_sent_to_two_stores_add_up_to_one_lock_that_both_see() {
    use crate::domain::staff::PIN_LOCK;
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    for i in 0..4 {
        let store = if i % 2 == 0 { &a } else { &b };
        let now = 1000 + i * 60;
        let locked = store.sign_ins().fail("ann".into(), now, PIN_LOCK).wait();
        assert_eq!(locked.unwrap(), None);
        assert_eq!(
            a.sign_ins().locked_until("ann".into(), now).wait().unwrap(),
            None
        );
    }
    assert_eq!(
        b.sign_ins()
            .fail("ann".into(), 1300, PIN_LOCK)
            .wait()
            .unwrap(),
        Some(2200)
    );
    for store in [&a, &b] {
        let until = |now| {
            store
                .sign_ins()
                .locked_until("ann".into(), now)
                .wait()
                .unwrap()
        };
        assert_eq!(until(1300), Some(2200));
        assert_eq!(until(2199), Some(2200));
        assert_eq!(until(2200), None);
        let bob = store.sign_ins().locked_until("bob".into(), 1300).wait();
        assert_eq!(bob.unwrap(), None, "other names are not locked");
    }
    close([a, b]);
}

#[test]
fn five_wrong_pins_in_the_same_second_on_two_stores_lock_the_name() {
    use crate::domain::staff::PIN_LOCK;
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    let locks = at_once([&a, &b], 3, |store, _| {
        store
            .sign_ins()
            .fail("ann".into(), 5000, PIN_LOCK)
            .wait()
            .unwrap()
    });
    assert!(locks.contains(&Some(5900)), "{locks:?}");
    let until = b
        .sign_ins()
        .locked_until("ann".into(), 5000)
        .wait()
        .unwrap();
    assert_eq!(until, Some(5900));
    close([a, b]);
}

#[test]
fn wrong_pins_spread_over_more_than_the_window_do_not_lock_and_a_right_one_clears_them() {
    use crate::domain::staff::PIN_LOCK;
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = two_stores(dir.path());
    for i in 0..10 {
        let store = if i % 2 == 0 { &a } else { &b };
        let locked = store
            .sign_ins()
            .fail("ann".into(), i * 300, PIN_LOCK)
            .wait();
        assert_eq!(locked.unwrap(), None, "at {}", i * 300);
    }
    for _ in 0..4 {
        a.sign_ins()
            .fail("bob".into(), 10, PIN_LOCK)
            .wait()
            .unwrap();
    }
    b.sign_ins().clear("bob".into()).wait().unwrap();
    let locked = a
        .sign_ins()
        .fail("bob".into(), 11, PIN_LOCK)
        .wait()
        .unwrap();
    assert_eq!(locked, None, "the right PIN forgot the four wrong ones");
    close([a, b]);
}

#[test]
fn the_unavailable_answer_names_the_disk_on_sqlite_and_the_database_on_postgresql() {
    let disk = StoreError::Unavailable("database or disk is full".into()).to_string();
    assert!(disk.contains("the disk is full or failing"), "{disk}");
    for why in [
        "PostgreSQL: error connecting to server",
        "the connection to PostgreSQL was lost; the transaction was undone",
    ] {
        let told = StoreError::Unavailable(why.into()).to_string();
        assert!(
            told.contains("PostgreSQL database cannot be reached"),
            "{told}"
        );
        assert!(!told.contains("disk"), "{told}");
    }
    let pg_disk = StoreError::Unavailable("PostgreSQL: could not extend file (53100)".into());
    assert!(pg_disk.to_string().contains("disk is full"));
}
