//! What is acknowledged stays: across a restart, and in a backup taken while writes go on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OpenFlags};
use serde_json::json;

use crate::support::{body, sqlite_only, TestApp};

#[tokio::test]
async fn a_restart_keeps_every_record_and_key() {
    let app = TestApp::spawn().await;
    let category = app.category("Fish").await;
    let pet = app.pet_with_stock("Nemo", category, 3).await;
    let order = body(
        app.post("/store/orders", json!({ "petId": pet, "quantity": 1 }))
            .await,
    )
    .await;
    let pos_key = app.key("pos", "pro").await;

    let app = app.restart().await;

    let pets = body(app.get(&format!("/pets?ids={pet}")).await).await;
    assert_eq!(pets[0]["name"], "Nemo");
    let stock = body(app.get(&format!("/store/inventory/{pet}")).await).await;
    assert_eq!(stock["quantity"], 2);
    let again = body(app.get(&format!("/store/orders/{}", order["id"])).await).await;
    assert_eq!(again, order);
    let res = app
        .send_as(&pos_key, reqwest::Method::GET, "/store/orders")
        .await;
    assert_eq!(
        res.status(),
        200,
        "a key made before the restart still works"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_during_a_stream_of_writes_holds_every_order_acknowledged_before_it() {
    if !sqlite_only("a PostgreSQL store is backed up with pg_dump, not by petstore") {
        return;
    }
    let app = TestApp::spawn().await;
    let category = app.category("Rabbits").await;
    let pet = app.pet_with_stock("Bugs", category, 100_000).await;
    let acknowledged = Arc::new(Mutex::new(Vec::<i64>::new()));
    let running = Arc::new(AtomicBool::new(true));

    let mut writers = Vec::new();
    for _ in 0..4 {
        let (client, url, acknowledged, running) = (
            app.client.clone(),
            app.url("/store/orders"),
            acknowledged.clone(),
            running.clone(),
        );
        writers.push(tokio::spawn(async move {
            while running.load(Ordering::Relaxed) {
                let res = client
                    .post(&url)
                    .header("X-API-Key", crate::support::ADMIN_KEY)
                    .json(&json!({ "petId": pet, "quantity": 1 }))
                    .send()
                    .await
                    .unwrap();
                assert_eq!(res.status(), 201);
                let id = body(res).await["id"].as_i64().unwrap();
                acknowledged.lock().unwrap().push(id);
            }
        }));
    }
    // Writes are flowing once a few are acknowledged (counted, not timed: a busy machine
    // takes longer).
    while acknowledged.lock().unwrap().len() <= 10 {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }

    let before: Vec<i64> = acknowledged.lock().unwrap().clone();
    let copy = app.dir.path().join("backup.sqlite");
    let (db, dest) = (app.db_path(), copy.clone());
    tokio::task::spawn_blocking(move || petstore::store::backup(&db, &dest))
        .await
        .unwrap()
        .unwrap();
    // Writes go on after the backup too: a few more are acknowledged (counted, not timed).
    let at_backup = acknowledged.lock().unwrap().len();
    while acknowledged.lock().unwrap().len() <= at_backup + 10 {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    running.store(false, Ordering::Relaxed);
    for writer in writers {
        writer.await.unwrap();
    }

    assert!(
        before.len() > 10,
        "writes were flowing ({} before the backup)",
        before.len()
    );
    let conn = Connection::open_with_flags(&copy, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    let mut stmt = conn.prepare("SELECT 1 FROM orders WHERE id = ?1").unwrap();
    for id in &before {
        assert!(
            stmt.exists([id]).unwrap(),
            "order {id} was acknowledged before the backup but is missing"
        );
    }
    let (orders, stock): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT COUNT(*) FROM orders), (SELECT quantity FROM inventory WHERE pet_id = ?1)",
            [pet],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        orders + stock,
        100_000,
        "the copy is one consistent moment: stock and orders add up"
    );
}
