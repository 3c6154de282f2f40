//! Parallel clients never oversell and never lose an update.

use futures_util::future::join_all;
use reqwest::Method;
use serde_json::json;

use crate::support::{body, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn forty_parallel_one_unit_orders_against_stock_ten_give_exactly_ten_orders() {
    let app = TestApp::spawn().await;
    let category = app.category("Dogs").await;
    let pet = app.pet_with_stock("Rex", category, 10).await;

    let attempts =
        (0..40).map(|_| app.post("/store/orders", json!({ "petId": pet, "quantity": 1 })));
    let statuses: Vec<u16> = join_all(attempts)
        .await
        .iter()
        .map(|r| r.status().as_u16())
        .collect();

    assert_eq!(
        statuses.iter().filter(|&&s| s == 201).count(),
        10,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|&s| s == 201 || s == 409),
        "{statuses:?}"
    );
    let stock = body(app.get(&format!("/store/inventory/{pet}")).await).await;
    assert_eq!(stock["quantity"], 0);
    assert_eq!(stock["status"], "pending");
    let orders = app.get(&format!("/store/orders?petId={pet}")).await;
    assert_eq!(orders.headers()["x-total-count"], "10");
    let history = app
        .get(&format!("/store/inventory/{pet}/adjustments?limit=500"))
        .await;
    let history = body(history).await;
    let total: i64 = history
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["delta"].as_i64().unwrap())
        .sum();
    assert_eq!(total, 0, "set +10 and ten orders of -1 add up to the stock");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_parallel_plus_one_adjustments_add_up_exactly() {
    let app = TestApp::spawn().await;
    let category = app.category("Cats").await;
    let pet = app.pet_with_stock("Tom", category, 5).await;
    let path = format!("/store/inventory/{pet}/adjustments");

    let adjustments = (0..50).map(|i| {
        app.post(
            &path,
            json!({ "delta": 1, "reason": format!("delivery {i}") }),
        )
    });
    let responses = join_all(adjustments).await;

    assert!(responses.iter().all(|r| r.status() == 200));
    let stock = body(app.get(&format!("/store/inventory/{pet}")).await).await;
    assert_eq!(stock["quantity"], 55);
    let history = app.get(&format!("{path}?limit=500")).await;
    assert_eq!(history.headers()["x-total-count"], "51");
    let history = body(history).await;
    let afters: Vec<i64> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["quantityAfter"].as_i64().unwrap())
        .collect();
    let mut sorted = afters.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        51,
        "every change saw a different count: {afters:?}"
    );
    assert_eq!(afters[0], 55, "the newest entry is the final count");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn parallel_edits_of_one_pet_with_if_match_let_exactly_one_win() {
    let app = TestApp::spawn().await;
    let category = app.category("Birds").await;
    let pet = app.pet_with_stock("Tweety", category, 0).await;
    let res = app.get(&format!("/pets?ids={pet}")).await;
    assert_eq!(res.status(), 200);
    let current = app.get(&format!("/categories/{category}")).await;
    assert_eq!(current.status(), 200);
    let tag = app.get(&format!("/store/inventory/{pet}")).await.headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();

    let edits = (1..=10).map(|n| {
        app.request(Method::PUT, &format!("/store/inventory/{pet}"))
            .header("If-Match", &tag)
            .json(&json!({ "quantity": n }))
            .send()
    });
    let statuses: Vec<u16> = join_all(edits)
        .await
        .into_iter()
        .map(|r| r.unwrap().status().as_u16())
        .collect();

    assert_eq!(
        statuses.iter().filter(|&&s| s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&s| s == 412).count(),
        9,
        "{statuses:?}"
    );
}
