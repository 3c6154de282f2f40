//! `/store/inventory`: stock counts, adjustments and the stock history.

use chrono::DateTime;
use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, assert_error_saying, body, header, ids_of, TestApp};

async fn history(app: &TestApp, pet: i64) -> Value {
    app.get_json(&format!("/store/inventory/{pet}/adjustments"))
        .await
}

#[tokio::test]
async fn setting_the_stock_answers_the_item_with_an_etag_and_records_a_set_entry() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 0).await;
    let res = app
        .send_json(
            Method::PUT,
            &format!("/store/inventory/{rex}"),
            json!({ "quantity": 7, "reason": "  delivery  " }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert!(header(&res, "etag").starts_with('"'));
    assert_eq!(
        body(res).await,
        json!({ "petId": rex, "quantity": 7, "status": "available" })
    );

    let res = app.get(&format!("/store/inventory/{rex}")).await;
    assert!(res.headers().contains_key("etag"));
    assert_eq!(body(res).await["quantity"], 7);

    let entries = history(&app, rex).await;
    assert_eq!(entries.as_array().unwrap().len(), 1);
    let entry = &entries[0];
    assert!(entry["id"].as_i64().unwrap() > 0);
    assert!(DateTime::parse_from_rfc3339(entry["at"].as_str().unwrap()).is_ok());
    assert_eq!(
        entry,
        &json!({
            "id": entry["id"], "petId": rex, "delta": 7, "quantityAfter": 7,
            "reason": "delivery", "source": "set", "orderId": null,
            "keyName": "admin", "at": entry["at"],
        })
    );
}

#[tokio::test]
async fn a_stock_quantity_outside_0_to_1000000_is_validation_failed() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 4).await;
    let path = format!("/store/inventory/{rex}");
    for quantity in [-1, 1_000_001] {
        let res = app
            .send_json(Method::PUT, &path, json!({ "quantity": quantity }))
            .await;
        assert_error_saying(res, 422, "validation_failed", "quantity").await;
    }
    let res = app.send_json(Method::PUT, &path, json!({})).await;
    assert_error(res, 422, "validation_failed").await;
    let res = app
        .send_json(Method::PUT, &path, json!({ "quantity": 1_000_000 }))
        .await;
    assert_eq!(body(res).await["quantity"], 1_000_000);
    let res = app
        .send_json(Method::PUT, &path, json!({ "quantity": 0 }))
        .await;
    assert_eq!(body(res).await["quantity"], 0);
}

#[tokio::test]
async fn a_reason_longer_than_200_characters_is_validation_failed() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 4).await;
    let res = app
        .send_json(
            Method::PUT,
            &format!("/store/inventory/{rex}"),
            json!({ "quantity": 1, "reason": "x".repeat(201) }),
        )
        .await;
    assert_error_saying(res, 422, "validation_failed", "reason").await;
}

#[tokio::test]
async fn an_adjustment_changes_the_count_and_answers_the_item_marked_beta() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let path = format!("/store/inventory/{rex}/adjustments");
    let res = app
        .post(&path, json!({ "delta": 3, "reason": "found in the back" }))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-stability"), "beta");
    assert_eq!(
        body(res).await,
        json!({ "petId": rex, "quantity": 8, "status": "available" })
    );
    let res = app.post(&path, json!({ "delta": -8 })).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await["quantity"], 0);

    let res = app.get(&path).await;
    assert_eq!(header(&res, "x-stability"), "beta");
    let entries = body(res).await;
    assert_eq!(entries[0]["source"], "adjustment");
    assert_eq!(entries[0]["delta"], -8);
    assert_eq!(entries[0]["quantityAfter"], 0);
    assert_eq!(entries[0]["reason"], Value::Null);
    assert_eq!(entries[1]["reason"], "found in the back");
    assert_eq!(entries[1]["delta"], 3);
}

#[tokio::test]
async fn an_adjustment_below_zero_is_insufficient_stock_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 2).await;
    let res = app
        .post(
            &format!("/store/inventory/{rex}/adjustments"),
            json!({ "delta": -3 }),
        )
        .await;
    assert_error(res, 409, "insufficient_stock").await;
    assert_eq!(app.stock(rex).await, 2);
    assert_eq!(history(&app, rex).await.as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_zero_or_out_of_range_adjustment_is_validation_failed() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 999_999).await;
    let path = format!("/store/inventory/{rex}/adjustments");
    for delta in [0, 1_000_001, -1_000_001, 2] {
        let res = app.post(&path, json!({ "delta": delta })).await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.contains("delta"), "{delta}: {message}");
    }
    let res = app.post(&path, json!({ "delta": 1 })).await;
    assert_eq!(body(res).await["quantity"], 1_000_000);
}

#[tokio::test]
async fn inventory_of_a_missing_pet_is_not_found() {
    let app = TestApp::spawn().await;
    assert_error(app.get("/store/inventory/31337").await, 404, "not_found").await;
    assert_error(
        app.get("/store/inventory/31337/adjustments").await,
        404,
        "not_found",
    )
    .await;
    let res = app
        .send_json(
            Method::PUT,
            "/store/inventory/31337",
            json!({ "quantity": 1 }),
        )
        .await;
    assert_error(res, 404, "not_found").await;
    let res = app
        .post("/store/inventory/31337/adjustments", json!({ "delta": 1 }))
        .await;
    assert_error(res, 404, "not_found").await;
}

#[tokio::test]
async fn the_history_is_newest_first_names_the_key_and_pages_like_lists() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 10).await;
    let staff = app.key("staff", "business").await;
    let path = format!("/store/inventory/{rex}/adjustments");
    for delta in [1, 2, 3, 4] {
        let res = app
            .request_as(&staff, Method::POST, &path)
            .json(&json!({ "delta": delta }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
    }
    let order = app.order(rex, 5).await;

    let all = history(&app, rex).await;
    let deltas: Vec<i64> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["delta"].as_i64().unwrap())
        .collect();
    assert_eq!(deltas, vec![-5, 4, 3, 2, 1, 10]);
    let afters: Vec<i64> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["quantityAfter"].as_i64().unwrap())
        .collect();
    assert_eq!(afters, vec![15, 20, 16, 13, 11, 10]);
    let ids = ids_of(&all);
    assert!(ids.windows(2).all(|w| w[0] > w[1]), "{ids:?}");
    assert_eq!(all[0]["orderId"], order["id"]);
    assert_eq!(all[0]["keyName"], "admin");
    assert_eq!(all[1]["keyName"], "staff business");

    let res = app.get(&format!("{path}?limit=2&offset=2")).await;
    assert_eq!(header(&res, "x-total-count"), "6");
    assert_eq!(
        header(&res, "link"),
        format!("<{path}?limit=2&offset=4>; rel=\"next\", <{path}?limit=2&offset=0>; rel=\"prev\"")
    );
    let page = body(res).await;
    assert_eq!(page.as_array().unwrap(), &all.as_array().unwrap()[2..4]);
}

#[tokio::test]
async fn the_inventory_lists_items_by_pet_and_a_pet_without_status_counts_as_available() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let plain = app.pet("Plain", cat).no_status().create().await;
    let sold = app.pet_with_stock("Gone", cat, 0).await;
    app.set_status(sold, "sold").await;
    let pending = app.pet_with_stock("Held", cat, 2).await;
    app.set_status(pending, "pending").await;

    let res = app.get("/store/inventory").await;
    assert_eq!(header(&res, "x-total-count"), "4");
    assert_eq!(
        body(res).await,
        json!([
            { "petId": rex, "quantity": 5, "status": "available" },
            { "petId": plain, "quantity": 0, "status": "available" },
            { "petId": sold, "quantity": 0, "status": "sold" },
            { "petId": pending, "quantity": 2, "status": "pending" },
        ])
    );
    let pets = |v: Value| -> Vec<i64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["petId"].as_i64().unwrap())
            .collect()
    };
    assert_eq!(
        pets(app.get_json("/store/inventory?status=available").await),
        vec![rex, plain]
    );
    assert_eq!(
        pets(app.get_json("/store/inventory?status=sold,pending").await),
        vec![sold, pending]
    );
    assert_eq!(
        pets(app.get_json("/store/inventory?below=1").await),
        vec![plain, sold]
    );
    assert_eq!(
        pets(app.get_json("/store/inventory?below=0").await),
        Vec::<i64>::new()
    );
    assert_eq!(
        pets(
            app.get_json("/store/inventory?below=3&status=available")
                .await
        ),
        vec![plain]
    );
    let res = app.get("/store/inventory?status=available&limit=1").await;
    assert_eq!(header(&res, "x-total-count"), "2");
    assert_eq!(
        header(&res, "link"),
        "</store/inventory?status=available&limit=1&offset=1>; rel=\"next\""
    );
}

#[tokio::test]
async fn bad_inventory_filters_are_bad_request() {
    let app = TestApp::spawn().await;
    for query in ["status=lost", "below=-1", "below=abc", "status=", "petId=1"] {
        let res = app.get(&format!("/store/inventory?{query}")).await;
        assert_error(res, 400, "bad_request").await;
    }
}
