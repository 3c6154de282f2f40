//! Reorder points, the low list and `inventory.low`; stocktakes that keep the sales made
//! while counting.

use std::time::Duration;

use futures_util::StreamExt;
use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, body, header, TestApp};

async fn reorder_at(app: &TestApp, pet: i64, point: Value) -> reqwest::Response {
    app.send_json(
        Method::PATCH,
        &format!("/store/inventory/{pet}"),
        json!({ "reorderPoint": point }),
    )
    .await
}

/// The types of the events the store kept, from the first (read by resuming at 0).
async fn event_types(app: &TestApp) -> Vec<(String, Value)> {
    let res = app
        .request(Method::GET, "/events")
        .header("Last-Event-ID", "0")
        .send()
        .await
        .unwrap();
    let mut stream = res.bytes_stream();
    let mut text = String::new();
    // The backlog arrives at once; stop at the first quiet moment.
    while let Ok(Some(chunk)) =
        tokio::time::timeout(Duration::from_millis(500), stream.next()).await
    {
        text.push_str(std::str::from_utf8(&chunk.unwrap()).unwrap());
    }
    text.split("\n\n")
        .filter_map(|block| {
            let event = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            let data: Value = serde_json::from_str(data).unwrap();
            Some((event.to_owned(), data["data"].clone()))
        })
        .collect()
}

#[tokio::test]
async fn a_reorder_point_is_set_shown_and_cleared_with_null() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Goldie", cat, 8).await;
    let res = reorder_at(&app, pet, json!(5)).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-stability"), "beta");
    assert_eq!(
        body(res).await,
        json!({ "petId": pet, "quantity": 8, "status": "available", "reorderPoint": 5 })
    );
    assert_eq!(
        app.get_json(&format!("/store/inventory/{pet}")).await["reorderPoint"],
        5
    );
    for bad in [json!(-1), json!(1_000_001), json!("5"), json!(2.5)] {
        let message =
            assert_error(reorder_at(&app, pet, bad).await, 422, "validation_failed").await;
        assert!(message.starts_with("reorderPoint"), "{message}");
    }
    let res = reorder_at(&app, pet, json!(null)).await;
    assert!(body(res).await.get("reorderPoint").is_none());
    let res = reorder_at(&app, 999_999, json!(1)).await;
    assert_error(res, 404, "not_found").await;
    let readonly = app.key("readonly", "business").await;
    let res = app
        .request_as(&readonly, Method::PATCH, &format!("/store/inventory/{pet}"))
        .json(&json!({ "reorderPoint": 1 }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
}

#[tokio::test]
async fn the_low_list_holds_the_items_at_or_below_their_reorder_point() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let at = app.pet_with_stock("At", cat, 5).await;
    let below = app.pet_with_stock("Below", cat, 2).await;
    let above = app.pet_with_stock("Above", cat, 9).await;
    let none = app.pet_with_stock("None", cat, 0).await;
    for pet in [at, below, above] {
        reorder_at(&app, pet, json!(5)).await;
    }
    let low = app.get_json("/store/inventory?low=true").await;
    let ids: Vec<i64> = low
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["petId"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [at, below]);
    let others = app.get_json("/store/inventory?low=false").await;
    let ids: Vec<i64> = others
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["petId"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [above, none]);
    assert_error(
        app.get("/store/inventory?low=yes").await,
        400,
        "bad_request",
    )
    .await;
}

#[tokio::test]
async fn crossing_the_reorder_point_emits_inventory_low_once() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Goldie", cat, 7).await;
    reorder_at(&app, pet, json!(5)).await;
    app.order(pet, 1).await; // 6: still above
    app.order(pet, 1).await; // 5: low
    app.order(pet, 1).await; // 4: already low
    let low: Vec<Value> = event_types(&app)
        .await
        .into_iter()
        .filter(|(kind, _)| kind == "inventory.low")
        .map(|(_, data)| data)
        .collect();
    assert_eq!(
        low,
        vec![json!({ "petId": pet, "quantity": 5, "status": "available", "reorderPoint": 5 })]
    );
}

#[tokio::test]
async fn a_stocktake_records_counts_with_their_variance() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Goldie", cat, 12).await;
    let res = app
        .post("/store/stocktakes", json!({ "note": "Fish room" }))
        .await;
    assert_eq!(res.status(), 201);
    let location = header(&res, "location");
    let created = body(res).await;
    let id = created["id"].as_i64().unwrap();
    assert_eq!(location, format!("/store/stocktakes/{id}"));
    assert_eq!(created["status"], "open");
    assert_eq!(created["note"], "Fish room");
    assert_eq!(created["lines"], json!([]));
    assert!(created["createdAt"].is_string());

    let line_path = format!("/store/stocktakes/{id}/lines/{pet}");
    let count =
        |counted: i64| app.send_json(Method::PUT, &line_path, json!({ "counted": counted }));
    let line = body(count(10).await).await;
    assert_eq!(
        (
            line["petId"].clone(),
            line["counted"].clone(),
            line["expected"].clone(),
            line["variance"].clone()
        ),
        (json!(pet), json!(10), json!(12), json!(-2))
    );
    assert!(line["countedAt"].is_string());
    // Counting again replaces the count.
    let line = body(count(13).await).await;
    assert_eq!(line["variance"], 1);
    let got = app.get_json(&format!("/store/stocktakes/{id}")).await;
    assert_eq!(got["lines"], json!([line]));
    // Counting changes no stock by itself.
    assert_eq!(app.stock(pet).await, 12);

    assert_error(count(-1).await, 422, "validation_failed").await;
    assert_error(count(1_000_001).await, 422, "validation_failed").await;
    let res = app
        .send_json(
            Method::PUT,
            &format!("/store/stocktakes/{id}/lines/999999"),
            json!({ "counted": 1 }),
        )
        .await;
    assert_error(res, 404, "not_found").await;
    let res = app
        .send_json(
            Method::PUT,
            &format!("/store/stocktakes/999999/lines/{pet}"),
            json!({ "counted": 1 }),
        )
        .await;
    assert_error(res, 404, "not_found").await;
}

#[tokio::test]
async fn a_sale_during_a_stocktake_is_kept_when_it_is_applied() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let sold = app.pet_with_stock("Goldie", cat, 12).await;
    let still = app.pet_with_stock("Koi", cat, 4).await;
    let right = app.pet_with_stock("Guppy", cat, 6).await;
    let id = body(app.post("/store/stocktakes", json!({})).await).await["id"]
        .as_i64()
        .unwrap();
    for (pet, counted) in [(sold, 10), (still, 5), (right, 6)] {
        let res = app
            .send_json(
                Method::PUT,
                &format!("/store/stocktakes/{id}/lines/{pet}"),
                json!({ "counted": counted }),
            )
            .await;
        assert_eq!(res.status(), 200);
    }
    // While the shelves are being counted, the till sells 3 of the counted goldfish.
    app.order(sold, 3).await;

    let res = app
        .post(&format!("/store/stocktakes/{id}/apply"), json!({}))
        .await;
    assert_eq!(res.status(), 200);
    let applied = body(res).await;
    assert_eq!(applied["status"], "applied");
    assert!(applied["appliedAt"].is_string());
    // Counted 10 with 12 expected, then 3 sold: 7 left, not 10.
    assert_eq!(app.stock(sold).await, 7);
    assert_eq!(app.stock(still).await, 5);
    assert_eq!(app.stock(right).await, 6);

    let history = app
        .get_json(&format!("/store/inventory/{sold}/adjustments"))
        .await;
    assert_eq!(history[0]["source"], "count");
    assert_eq!(
        (
            history[0]["delta"].clone(),
            history[0]["quantityAfter"].clone()
        ),
        (json!(-2), json!(7))
    );
    assert_eq!(history[1]["source"], "order");
    // A line whose stock did not change writes no entry.
    let history = app
        .get_json(&format!("/store/inventory/{right}/adjustments"))
        .await;
    assert!(
        history
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["source"] != "count"),
        "{history}"
    );
}

#[tokio::test]
async fn an_applied_stocktake_is_closed_and_an_open_one_can_be_discarded() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Goldie", cat, 3).await;
    let id = body(app.post("/store/stocktakes", json!({})).await).await["id"]
        .as_i64()
        .unwrap();
    let res = app
        .send_json(
            Method::PUT,
            &format!("/store/stocktakes/{id}/lines/{pet}"),
            json!({ "counted": 2 }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = app
        .post(&format!("/store/stocktakes/{id}/apply"), json!({}))
        .await;
    assert_eq!(res.status(), 200);

    let res = app
        .post(&format!("/store/stocktakes/{id}/apply"), json!({}))
        .await;
    assert_error(res, 409, "stocktake_closed").await;
    let res = app
        .send_json(
            Method::PUT,
            &format!("/store/stocktakes/{id}/lines/{pet}"),
            json!({ "counted": 1 }),
        )
        .await;
    assert_error(res, 409, "stocktake_closed").await;
    assert_error(
        app.delete(&format!("/store/stocktakes/{id}")).await,
        409,
        "stocktake_closed",
    )
    .await;
    assert_eq!(app.stock(pet).await, 2);

    let open = body(
        app.post("/store/stocktakes", json!({ "note": "again" }))
            .await,
    )
    .await["id"]
        .as_i64()
        .unwrap();
    app.send_json(
        Method::PUT,
        &format!("/store/stocktakes/{open}/lines/{pet}"),
        json!({ "counted": 50 }),
    )
    .await;
    let res = app.delete(&format!("/store/stocktakes/{open}")).await;
    assert_eq!(res.status(), 204);
    assert_error(
        app.get(&format!("/store/stocktakes/{open}")).await,
        404,
        "not_found",
    )
    .await;
    assert_eq!(app.stock(pet).await, 2);

    let list = app.get("/store/stocktakes").await;
    assert_eq!(header(&list, "x-total-count"), "1");
    let list = body(list).await;
    assert_eq!(list[0]["id"], id);
    assert_eq!(list[0]["lines"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn stocktakes_are_listed_newest_first_and_need_the_staff_role() {
    let app = TestApp::spawn().await;
    let first = body(app.post("/store/stocktakes", json!({})).await).await["id"].clone();
    let second =
        body(app.post("/store/stocktakes", json!({ "note": null })).await).await["id"].clone();
    let list = app.get_json("/store/stocktakes").await;
    let ids: Vec<Value> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].clone())
        .collect();
    assert_eq!(ids, [second, first]);
    let pos = app.key("pos", "business").await;
    let res = app.send_as(&pos, Method::GET, "/store/stocktakes").await;
    assert_error(res, 403, "forbidden").await;
    let res = app
        .post("/store/stocktakes", json!({ "note": "x".repeat(201) }))
        .await;
    assert_error(res, 422, "validation_failed").await;
}
