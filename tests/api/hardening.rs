//! What a hostile network or a failing disk must not do: commit a write after its request
//! was answered 408, hand a second serving process the same store, or crash on a panic.

use std::time::Duration;

use rusqlite::Connection;
use serde_json::json;

use crate::support::{body, sqlite_only, TestApp};

#[tokio::test]
async fn a_write_answered_408_is_never_committed_later() {
    let app = TestApp::builder()
        .args(|a| a.request_timeout = 1)
        .spawn()
        .await;
    let category = app.category("Birds").await;
    // Another program holds the write lock for 2.5 s: the writer waits for it (its busy
    // timeout is longer), and the request times out meanwhile.
    // On PostgreSQL the write lock is the store's advisory lock (see src/store/dialect.rs).
    let db = app.db_path();
    let (locked, holding) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        if crate::support::postgres_base().is_some() {
            let url = db.to_str().unwrap();
            let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
            client
                .batch_execute("BEGIN; SELECT pg_advisory_xact_lock(88258697691137)")
                .unwrap();
            let _ = locked.send(());
            std::thread::sleep(Duration::from_millis(2500));
            client.batch_execute("COMMIT").unwrap();
            return;
        }
        let conn = Connection::open(db).unwrap();
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        let _ = locked.send(());
        std::thread::sleep(Duration::from_millis(2500));
        conn.execute_batch("COMMIT").unwrap();
    });
    tokio::task::spawn_blocking(move || holding.recv().unwrap())
        .await
        .unwrap();
    let res = app
        .post(
            "/pets",
            json!({ "name": "Late", "categoryId": category, "status": "available" }),
        )
        .await;
    assert_eq!(res.status(), 408);
    assert_eq!(body(res).await["code"], "request_timeout");
    holder.join().unwrap();
    // The writer answers its jobs in order, and the timed-out write was queued before this
    // one: once this is answered, the dropped write has been reached (a barrier, no sleep).
    let res = app
        .post(
            "/pets",
            json!({ "name": "Later", "categoryId": category, "status": "available" }),
        )
        .await;
    assert_eq!(res.status(), 201, "writes work again");
    let pets = body(app.get("/pets").await).await;
    let names: Vec<&str> = pets
        .as_array()
        .unwrap()
        .iter()
        .map(|pet| pet["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Later"],
        "the timed-out write was dropped, not committed"
    );
}

#[tokio::test]
async fn a_second_server_on_the_same_store_is_refused_while_the_first_serves() {
    if !sqlite_only(
        "several servers on one PostgreSQL database is the point (tests/multi covers it)",
    ) {
        return;
    }
    let app = TestApp::spawn().await;
    let settings = app.settings.clone();
    let err = tokio::task::spawn_blocking(move || petstore::App::open(&settings).err())
        .await
        .unwrap()
        .expect("the second open is refused");
    assert!(
        err.to_string()
            .contains("this store is already open by another petstore"),
        "{err}"
    );
    let dir = app.stop().await;
    let settings = petstore::Settings::new(
        Some(dir.path().join("store.sqlite")),
        petstore::ServeArgs::default(),
    )
    .unwrap();
    let reopened =
        tokio::task::spawn_blocking(move || petstore::App::open(&settings).map(|a| a.close()))
            .await
            .unwrap();
    assert!(reopened.is_ok(), "once closed, the store opens again");
}
