//! `Idempotency-Key` on placing orders and adjusting stock: replays, reuse with another
//! body, scoping per API key, and a repeat racing the first.

use reqwest::{Method, Response};
use serde_json::{json, Value};

use crate::support::{assert_error, body, header, TestApp, ADMIN_KEY};

async fn place(app: &TestApp, secret: &str, key: &str, order: &Value) -> Response {
    app.request_as(secret, Method::POST, "/store/orders")
        .header("Idempotency-Key", key)
        .json(order)
        .send()
        .await
        .unwrap()
}

async fn history_len(app: &TestApp, pet: i64) -> usize {
    app.get_json(&format!("/store/inventory/{pet}/adjustments"))
        .await
        .as_array()
        .unwrap()
        .len()
}

#[tokio::test]
async fn a_repeated_order_replays_the_first_answer_without_placing_it_again() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let order = json!({ "petId": rex, "quantity": 2 });

    let first = place(&app, ADMIN_KEY, "k-1", &order).await;
    assert_eq!(first.status(), 201);
    let location = header(&first, "location");
    let etag = header(&first, "etag");
    let first_body = first.text().await.unwrap();

    for _ in 0..3 {
        let again = place(&app, ADMIN_KEY, "k-1", &order).await;
        assert_eq!(again.status(), 201);
        assert_eq!(header(&again, "location"), location);
        assert_eq!(header(&again, "etag"), etag);
        assert_eq!(header(&again, "idempotent-replayed"), "true");
        assert_eq!(again.text().await.unwrap(), first_body);
    }
    assert_eq!(app.stock(rex).await, 3, "decremented once");
    assert_eq!(
        history_len(&app, rex).await,
        2,
        "the set and one order entry"
    );
    assert_eq!(
        app.get_json("/store/orders")
            .await
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[tokio::test]
async fn the_same_body_with_keys_in_another_order_or_spacing_is_a_replay() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let res = app
        .request(Method::POST, "/store/orders")
        .header("Idempotency-Key", "k-order")
        .header("Content-Type", "application/json")
        .body(format!(r#"{{"petId":{rex},"quantity":1}}"#))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let first = body(res).await;
    let res = app
        .request(Method::POST, "/store/orders")
        .header("Idempotency-Key", "k-order")
        .header("Content-Type", "application/json")
        .body(format!("{{ \"quantity\" : 1,\n \"petId\" : {rex} }}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    assert_eq!(body(res).await, first);
    assert_eq!(app.stock(rex).await, 4);
}

#[tokio::test]
async fn the_same_key_with_another_body_is_idempotency_key_reused() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let res = place(
        &app,
        ADMIN_KEY,
        "k-2",
        &json!({ "petId": rex, "quantity": 1 }),
    )
    .await;
    assert_eq!(res.status(), 201);
    let res = place(
        &app,
        ADMIN_KEY,
        "k-2",
        &json!({ "petId": rex, "quantity": 2 }),
    )
    .await;
    assert_error(res, 422, "idempotency_key_reused").await;
    let res = place(
        &app,
        ADMIN_KEY,
        "k-2",
        &json!({ "petId": rex, "quantity": 1, "shipDate": "2030-01-01T00:00:00Z" }),
    )
    .await;
    assert_error(res, 422, "idempotency_key_reused").await;
    assert_eq!(app.stock(rex).await, 4);
}

#[tokio::test]
async fn idempotency_keys_are_scoped_to_the_calling_api_key() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let till_a = app.key("pos", "business").await;
    let till_b = app.key("pos", "business").await;
    let order = json!({ "petId": rex, "quantity": 1 });
    let a = place(&app, &till_a, "shared", &order).await;
    assert_eq!(a.status(), 201);
    let b = place(&app, &till_b, "shared", &order).await;
    assert_eq!(b.status(), 201);
    assert!(b.headers().get("idempotent-replayed").is_none());
    assert_ne!(body(a).await["id"], body(b).await["id"]);
    // The other key's reuse with another body is not a reuse for this key.
    let c = place(
        &app,
        ADMIN_KEY,
        "shared",
        &json!({ "petId": rex, "quantity": 2 }),
    )
    .await;
    assert_eq!(c.status(), 201);
    assert_eq!(app.stock(rex).await, 1);
}

#[tokio::test]
async fn a_quoted_idempotency_key_is_the_same_key_unquoted() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let order = json!({ "petId": rex, "quantity": 1 });
    let first = place(&app, ADMIN_KEY, "\"abc\"", &order).await;
    assert_eq!(first.status(), 201);
    let first = body(first).await;
    let again = place(&app, ADMIN_KEY, "abc", &order).await;
    assert_eq!(again.status(), 201);
    assert_eq!(header(&again, "idempotent-replayed"), "true");
    assert_eq!(body(again).await, first);
    assert_eq!(app.stock(rex).await, 4);
}

#[tokio::test]
async fn an_idempotency_key_longer_than_255_characters_is_bad_request() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let order = json!({ "petId": rex, "quantity": 1 });
    let res = place(&app, ADMIN_KEY, &"k".repeat(256), &order).await;
    assert_error(res, 400, "bad_request").await;
    let res = place(&app, ADMIN_KEY, &"k".repeat(255), &order).await;
    assert_eq!(res.status(), 201);
    assert_eq!(app.stock(rex).await, 4);
}

#[tokio::test]
async fn a_quoted_idempotency_key_counts_its_quotes_toward_the_255() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let order = json!({ "petId": rex, "quantity": 1 });
    let too_long = format!("\"{}\"", "q".repeat(254));
    let res = place(&app, ADMIN_KEY, &too_long, &order).await;
    assert_error(res, 400, "bad_request").await;
    assert_eq!(app.stock(rex).await, 5, "nothing was sold");
    let fits = format!("\"{}\"", "q".repeat(253));
    let res = place(&app, ADMIN_KEY, &fits, &order).await;
    assert_eq!(res.status(), 201);
    assert_eq!(app.stock(rex).await, 4);
}

#[tokio::test]
async fn a_failed_request_is_not_recorded_and_may_be_retried_with_its_key() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 1).await;
    let order = json!({ "petId": rex, "quantity": 3 });
    let res = place(&app, ADMIN_KEY, "k-retry", &order).await;
    assert_error(res, 409, "insufficient_stock").await;
    let res = app
        .send_json(
            Method::PUT,
            &format!("/store/inventory/{rex}"),
            json!({ "quantity": 3 }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = place(&app, ADMIN_KEY, "k-retry", &order).await;
    assert_eq!(res.status(), 201);
    assert!(res.headers().get("idempotent-replayed").is_none());
    assert_eq!(app.stock(rex).await, 0);
}

#[tokio::test]
async fn a_repeated_adjustment_replays_and_changes_the_stock_once() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let path = format!("/store/inventory/{rex}/adjustments");
    let adjust = |key: &'static str, delta: i64| {
        app.request(Method::POST, &path)
            .header("Idempotency-Key", key)
            .json(&json!({ "delta": delta, "reason": "count" }))
            .send()
    };
    let first = adjust("adj-1", -2).await.unwrap();
    assert_eq!(first.status(), 200);
    let first = body(first).await;
    assert_eq!(first["quantity"], 3);
    let again = adjust("adj-1", -2).await.unwrap();
    assert_eq!(again.status(), 200);
    assert_eq!(header(&again, "idempotent-replayed"), "true");
    assert_eq!(body(again).await, first);
    assert_eq!(app.stock(rex).await, 3);
    assert_eq!(history_len(&app, rex).await, 2);

    assert_error(
        adjust("adj-1", -1).await.unwrap(),
        422,
        "idempotency_key_reused",
    )
    .await;
    assert_eq!(app.stock(rex).await, 3);
}

#[tokio::test]
async fn the_same_adjustment_key_and_body_for_another_pet_is_a_reuse() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let max = app.pet_with_stock("Max", cat, 5).await;
    let adjust = |pet: i64| {
        app.request(Method::POST, &format!("/store/inventory/{pet}/adjustments"))
            .header("Idempotency-Key", "adj-pets")
            .json(&json!({ "delta": 1 }))
            .send()
    };
    assert_eq!(adjust(rex).await.unwrap().status(), 200);
    assert_error(adjust(max).await.unwrap(), 422, "idempotency_key_reused").await;
    assert_eq!(app.stock(max).await, 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_repeats_place_one_order_and_answer_replay_or_conflict() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 100).await;
    let order = json!({ "petId": rex, "quantity": 1 });
    let url = app.url("/store/orders");
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let client = reqwest::Client::new();
            let url = url.clone();
            let order = order.clone();
            tokio::spawn(async move {
                let res = client
                    .post(url)
                    .header("X-API-Key", ADMIN_KEY)
                    .header("Idempotency-Key", "race")
                    .json(&order)
                    .send()
                    .await
                    .unwrap();
                let status = res.status().as_u16();
                (status, res.text().await.unwrap())
            })
        })
        .collect();
    let mut created = Vec::new();
    for task in tasks {
        let (status, text) = task.await.unwrap();
        match status {
            201 => created.push(text),
            409 => {
                let error: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(error["code"], "conflict", "{text}");
                assert_eq!(error["status"], 409);
            }
            other => panic!("unexpected {other}: {text}"),
        }
    }
    assert!(!created.is_empty());
    assert!(
        created.iter().all(|b| b == &created[0]),
        "every 201 is the same answer"
    );
    let orders = app.get_json("/store/orders").await;
    assert_eq!(orders.as_array().unwrap().len(), 1);
    assert_eq!(
        orders[0],
        serde_json::from_str::<Value>(&created[0]).unwrap()
    );
    assert_eq!(app.stock(rex).await, 99);
}
