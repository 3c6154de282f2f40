//! `/store/orders` and the six transition rules that tie orders to stock and status.

use chrono::{DateTime, Utc};
use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, assert_error_saying, body, header, ids_of, TestApp};

async fn pet(app: &TestApp, id: i64) -> Value {
    app.get_json(&format!("/pets/{id}")).await
}

#[tokio::test]
async fn placing_an_order_answers_201_with_location_etag_and_an_open_order() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let res = app
        .post("/store/orders", json!({ "petId": rex, "quantity": 2 }))
        .await;
    assert_eq!(res.status(), 201);
    let location = header(&res, "location");
    assert!(header(&res, "etag").starts_with('"'));
    let order = body(res).await;
    let id = order["id"].as_i64().unwrap();
    assert_eq!(location, format!("/store/orders/{id}"));
    let placed_at = order["placedAt"].as_str().expect("placedAt").to_owned();
    assert!(
        placed_at.ends_with('Z') && placed_at.len() == 20,
        "{placed_at}"
    );
    assert_eq!(
        order,
        json!({
            "id": id, "petId": rex, "petName": "Rex", "quantity": 2, "complete": false,
            "placedAt": placed_at,
        })
    );
    let res = app.get(&location).await;
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("etag"));
    assert_eq!(body(res).await, order);
}

#[tokio::test]
async fn a_ship_date_given_with_an_order_is_kept_in_utc() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let res = app
        .post(
            "/store/orders",
            json!({ "petId": rex, "quantity": 1, "shipDate": "2026-05-01T12:00:00+02:00" }),
        )
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(body(res).await["shipDate"], "2026-05-01T10:00:00Z");
}

#[tokio::test]
async fn rule_1_an_order_takes_its_units_out_of_stock_and_records_an_order_entry() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let order = app.order(rex, 2).await;
    assert_eq!(app.stock(rex).await, 3);
    assert_eq!(pet(&app, rex).await["status"], "available");
    let history = app
        .get_json(&format!("/store/inventory/{rex}/adjustments"))
        .await;
    assert_eq!(history[0]["source"], "order");
    assert_eq!(history[0]["delta"], -2);
    assert_eq!(history[0]["quantityAfter"], 3);
    assert_eq!(history[0]["orderId"], order["id"]);
}

#[tokio::test]
async fn rule_1_a_pending_or_sold_pet_cannot_be_ordered() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    for status in ["pending", "sold"] {
        let id = app.pet_with_stock(&format!("Rex {status}"), cat, 5).await;
        let res = app
            .send_json(
                Method::PATCH,
                &format!("/pets/{id}"),
                json!({ "status": status }),
            )
            .await;
        assert_eq!(res.status(), 200);
        let res = app
            .post("/store/orders", json!({ "petId": id, "quantity": 1 }))
            .await;
        assert_error(res, 409, "pet_not_available").await;
        assert_eq!(app.stock(id).await, 5, "stock untouched for a {status} pet");
    }
    assert_eq!(app.get_json("/store/orders").await, json!([]));
}

#[tokio::test]
async fn rule_1_a_pet_without_status_can_be_ordered() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let id = app.pet("Plain", cat).no_status().stock(3).create().await;
    app.order(id, 1).await;
    assert_eq!(app.stock(id).await, 2);
    assert!(pet(&app, id).await.get("status").is_none());
}

#[tokio::test]
async fn rule_1_more_units_than_in_stock_is_insufficient_stock_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 2).await;
    let res = app
        .post("/store/orders", json!({ "petId": rex, "quantity": 3 }))
        .await;
    assert_error_saying(res, 409, "insufficient_stock", "2").await;
    assert_eq!(app.stock(rex).await, 2);
    assert_eq!(pet(&app, rex).await["status"], "available");
    let res = app
        .get(&format!("/store/inventory/{rex}/adjustments"))
        .await;
    assert_eq!(res.headers()["x-total-count"], "1", "only the initial set");
}

#[tokio::test]
async fn availability_is_checked_before_stock() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 1).await;
    app.order(rex, 1).await;
    assert_eq!(pet(&app, rex).await["status"], "pending");
    assert_eq!(app.stock(rex).await, 0);
    let res = app
        .post("/store/orders", json!({ "petId": rex, "quantity": 1 }))
        .await;
    assert_error(res, 409, "pet_not_available").await;
}

#[tokio::test]
async fn rule_2_taking_the_last_unit_makes_the_pet_pending() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 3).await;
    app.order(rex, 1).await;
    assert_eq!(pet(&app, rex).await["status"], "available");
    app.order(rex, 2).await;
    assert_eq!(pet(&app, rex).await["status"], "pending");
    let item = app.get_json(&format!("/store/inventory/{rex}")).await;
    assert_eq!(
        item,
        json!({ "petId": rex, "quantity": 0, "status": "pending" })
    );
}

#[tokio::test]
async fn rule_3_completing_the_last_open_order_of_a_pet_without_stock_sells_it() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 2).await;
    let first = app.order(rex, 1).await;
    let second = app.order(rex, 1).await;
    assert_eq!(pet(&app, rex).await["status"], "pending");

    assert_eq!(app.complete(&first).await.status(), 200);
    assert_eq!(
        pet(&app, rex).await["status"],
        "pending",
        "another order is still open"
    );
    assert_eq!(app.complete(&second).await.status(), 200);
    assert_eq!(pet(&app, rex).await["status"], "sold");
    assert_eq!(
        app.get_json(&format!("/store/inventory/{rex}")).await["status"],
        "sold"
    );
}

#[tokio::test]
async fn rule_3_completing_an_order_while_stock_remains_keeps_the_pet_available() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let order = app.order(rex, 2).await;
    let res = app.complete(&order).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await["complete"], true);
    assert_eq!(pet(&app, rex).await["status"], "available");
    assert_eq!(app.stock(rex).await, 3);
}

#[tokio::test]
async fn rule_4_cancelling_returns_the_units_and_makes_a_pending_pet_available() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 2).await;
    let order = app.order(rex, 2).await;
    assert_eq!(pet(&app, rex).await["status"], "pending");
    let res = app.delete(&format!("/store/orders/{}", order["id"])).await;
    assert_eq!(res.status(), 204);
    assert_eq!(res.text().await.unwrap(), "");
    assert_eq!(app.stock(rex).await, 2);
    assert_eq!(pet(&app, rex).await["status"], "available");
}

#[tokio::test]
async fn a_cancelled_order_is_gone_and_the_history_keeps_a_cancel_entry() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 4).await;
    let order = app.order(rex, 3).await;
    let path = format!("/store/orders/{}", order["id"]);
    assert_eq!(app.delete(&path).await.status(), 204);
    assert_error(app.get(&path).await, 404, "not_found").await;
    assert_error(app.delete(&path).await, 404, "not_found").await;
    assert_eq!(app.get_json("/store/orders").await, json!([]));
    let history = app
        .get_json(&format!("/store/inventory/{rex}/adjustments"))
        .await;
    assert_eq!(history[0]["source"], "cancel");
    assert_eq!(history[0]["delta"], 3);
    assert_eq!(history[0]["quantityAfter"], 4);
    assert_eq!(history[0]["orderId"], order["id"]);
    assert_eq!(history[1]["source"], "order");
}

#[tokio::test]
async fn cancelling_a_completed_order_is_order_already_complete() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 4).await;
    let order = app.order(rex, 1).await;
    assert_eq!(app.complete(&order).await.status(), 200);
    let res = app.delete(&format!("/store/orders/{}", order["id"])).await;
    assert_error(res, 409, "order_already_complete").await;
    assert_eq!(app.stock(rex).await, 3);
}

#[tokio::test]
async fn rule_5_staff_may_set_any_status_and_stock_changes_leave_it_alone() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 1).await;
    app.order(rex, 1).await;
    assert_eq!(pet(&app, rex).await["status"], "pending");
    let res = app
        .send_json(
            Method::PUT,
            &format!("/store/inventory/{rex}"),
            json!({ "quantity": 5 }),
        )
        .await;
    assert_eq!(
        body(res).await["status"],
        "pending",
        "a restock does not change the status"
    );
    let res = app
        .post(
            &format!("/store/inventory/{rex}/adjustments"),
            json!({ "delta": -5 }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(pet(&app, rex).await["status"], "pending");

    for status in ["sold", "available", "pending"] {
        let res = app
            .send_json(
                Method::PATCH,
                &format!("/pets/{rex}"),
                json!({ "status": status }),
            )
            .await;
        assert_eq!(res.status(), 200);
        assert_eq!(body(res).await["status"], status);
    }
    let other = app.pet_with_stock("Max", cat, 3).await;
    let res = app
        .send_json(
            Method::PUT,
            &format!("/store/inventory/{other}"),
            json!({ "quantity": 0 }),
        )
        .await;
    assert_eq!(
        body(res).await["status"],
        "available",
        "emptying stock does not make it pending"
    );
}

#[tokio::test]
async fn rule_6_completing_an_order_without_ship_date_sets_it_to_now() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 3).await;
    let order = app.order(rex, 1).await;
    assert!(order.get("shipDate").is_none());
    let before = Utc::now().timestamp();
    let res = app.complete(&order).await;
    let after = Utc::now().timestamp();
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("etag"));
    let done = body(res).await;
    assert_eq!(done["complete"], true);
    let ship = done["shipDate"].as_str().unwrap();
    assert!(ship.ends_with('Z'), "{ship}");
    let at = DateTime::parse_from_rfc3339(ship).unwrap().timestamp();
    assert!(
        (before..=after).contains(&at),
        "{ship} between {before} and {after}"
    );
    assert_eq!(
        app.get_json(&format!("/store/orders/{}", order["id"]))
            .await,
        done
    );
}

#[tokio::test]
async fn rule_6_completing_an_order_keeps_a_ship_date_it_already_has() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 3).await;
    let res = app
        .post(
            "/store/orders",
            json!({ "petId": rex, "quantity": 1, "shipDate": "2030-01-02T03:04:05Z" }),
        )
        .await;
    let order = body(res).await;
    let done = body(app.complete(&order).await).await;
    assert_eq!(done["shipDate"], "2030-01-02T03:04:05Z");
    assert_eq!(done["complete"], true);
}

#[tokio::test]
async fn a_ship_date_sent_with_completion_is_used() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 3).await;
    let order = app.order(rex, 1).await;
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/store/orders/{}", order["id"]),
            json!({ "complete": true, "shipDate": "2031-07-08T09:10:11Z" }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let done = body(res).await;
    assert!(done["completedAt"].is_string(), "{done}");
    assert_eq!(
        done,
        json!({ "id": order["id"], "petId": rex, "petName": "Rex", "quantity": 1,
                "shipDate": "2031-07-08T09:10:11Z", "complete": true,
                "placedAt": order["placedAt"], "completedAt": done["completedAt"] })
    );
}

#[tokio::test]
async fn completion_is_one_way_and_repeating_it_changes_nothing() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 3).await;
    let order = app.order(rex, 1).await;
    let path = format!("/store/orders/{}", order["id"]);
    let res = app.complete(&order).await;
    let etag = header(&res, "etag");
    let done = body(res).await;

    let res = app
        .send_json(Method::PATCH, &path, json!({ "complete": false }))
        .await;
    assert_error(res, 409, "order_already_complete").await;

    let res = app.complete(&order).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "etag"), etag);
    assert_eq!(body(res).await, done);
    assert_eq!(app.get_json(&path).await, done);
    assert_eq!(app.stock(rex).await, 2);
}

#[tokio::test]
async fn an_order_for_a_pet_that_does_not_exist_is_unknown_pet() {
    let app = TestApp::spawn().await;
    let res = app
        .post("/store/orders", json!({ "petId": 987_654, "quantity": 1 }))
        .await;
    assert_error_saying(res, 422, "unknown_pet", "987654").await;
}

#[tokio::test]
async fn an_order_quantity_outside_1_to_10000_is_validation_failed() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 20_000).await;
    for quantity in [0, -1, 10_001] {
        let res = app
            .post(
                "/store/orders",
                json!({ "petId": rex, "quantity": quantity }),
            )
            .await;
        assert_error_saying(res, 422, "validation_failed", "quantity").await;
    }
    let res = app
        .post("/store/orders", json!({ "petId": rex, "quantity": 10_000 }))
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(app.stock(rex).await, 10_000);
}

#[tokio::test]
async fn the_order_list_is_newest_first_and_filters_by_complete_and_pet() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 10).await;
    let max = app.pet_with_stock("Max", cat, 10).await;
    let a = app.order(rex, 1).await["id"].as_i64().unwrap();
    let b = app.order(max, 1).await["id"].as_i64().unwrap();
    let c = app.order(rex, 1).await["id"].as_i64().unwrap();
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/store/orders/{a}"),
            json!({ "complete": true }),
        )
        .await;
    assert_eq!(res.status(), 200);

    let ids = |v: Value| ids_of(&v);
    let res = app.get("/store/orders").await;
    assert_eq!(res.headers()["x-total-count"], "3");
    assert_eq!(ids(body(res).await), vec![c, b, a]);
    assert_eq!(
        ids(app.get_json("/store/orders?complete=true").await),
        vec![a]
    );
    assert_eq!(
        ids(app.get_json("/store/orders?complete=false").await),
        vec![c, b]
    );
    assert_eq!(
        ids(app.get_json(&format!("/store/orders?petId={rex}")).await),
        vec![c, a]
    );
    assert_eq!(
        ids(app
            .get_json(&format!("/store/orders?petId={rex}&complete=false"))
            .await),
        vec![c]
    );
}

#[tokio::test]
async fn a_pet_with_an_open_order_cannot_be_deleted() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 2).await;
    let order = app.order(rex, 1).await;
    assert_error(
        app.delete(&format!("/pets/{rex}")).await,
        409,
        "pet_has_open_orders",
    )
    .await;
    assert_eq!(pet(&app, rex).await["name"], "Rex");
    assert_eq!(
        app.delete(&format!("/store/orders/{}", order["id"]))
            .await
            .status(),
        204
    );
    assert_eq!(app.delete(&format!("/pets/{rex}")).await.status(), 204);
}

#[tokio::test]
async fn a_cancelled_order_id_is_never_given_to_a_new_order() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let cancelled = app.order(rex, 1).await["id"].as_i64().unwrap();
    assert_eq!(
        app.delete(&format!("/store/orders/{cancelled}"))
            .await
            .status(),
        204
    );
    let next = app.order(rex, 2).await["id"].as_i64().unwrap();
    assert_ne!(next, cancelled);
    assert_error(
        app.get(&format!("/store/orders/{cancelled}")).await,
        404,
        "not_found",
    )
    .await;
    let history = app
        .get_json(&format!("/store/inventory/{rex}/adjustments"))
        .await;
    assert_eq!(history[0]["orderId"], next);
    assert_eq!(history[1]["orderId"], cancelled);
    assert_eq!(history[1]["source"], "cancel");
}

#[tokio::test]
async fn rule_2_taking_the_last_unit_of_a_pet_without_status_makes_it_pending() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let id = app.pet("Plain", cat).no_status().stock(2).create().await;
    let order = app.order(id, 2).await;
    assert_eq!(pet(&app, id).await["status"], "pending");
    assert_eq!(app.complete(&order).await.status(), 200);
    assert_eq!(pet(&app, id).await["status"], "sold");
}

#[tokio::test]
async fn a_cancel_that_would_lift_stock_past_1000000_is_conflict_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let tetra = app.pet_with_stock("Neon tetra", cat, 10).await;
    let order = app.order(tetra, 2).await;
    let full = app
        .request(Method::PUT, &format!("/store/inventory/{tetra}"))
        .json(&json!({"quantity": 1_000_000}))
        .send()
        .await
        .unwrap();
    assert_eq!(full.status(), 200);
    let res = app.delete(&format!("/store/orders/{}", order["id"])).await;
    assert_error_saying(res, 409, "conflict", "most a shop can hold").await;
    let stock = app.get_json(&format!("/store/inventory/{tetra}")).await;
    assert_eq!(stock["quantity"], 1_000_000);
    let kept = app.get(&format!("/store/orders/{}", order["id"])).await;
    assert_eq!(kept.status(), 200, "the order is still there");
}

#[tokio::test]
async fn cancelled_orders_are_listed_newest_first_with_their_price_and_both_times() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 10).await;
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/pets/{rex}"),
            json!({ "price": 2500 }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let first = app.order(rex, 2).await;
    let kept = app.order(rex, 1).await;
    let second = app.order(rex, 3).await;
    let res = app.get("/store/cancelled-orders").await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-stability"), "beta");
    assert_eq!(header(&res, "x-total-count"), "0");
    assert_eq!(body(res).await, json!([]));
    for order in [&first, &second] {
        let path = format!("/store/orders/{}", order["id"]);
        assert_eq!(app.delete(&path).await.status(), 204);
    }
    let res = app.get("/store/cancelled-orders").await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-total-count"), "2");
    let listed = body(res).await;
    let ids: Vec<&Value> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|o| &o["id"])
        .collect();
    assert_eq!(ids, [&second["id"], &first["id"]]);
    let cancelled_at = listed[0]["cancelledAt"].as_str().expect("cancelledAt");
    let placed = DateTime::parse_from_rfc3339(second["placedAt"].as_str().unwrap()).unwrap();
    assert!(DateTime::parse_from_rfc3339(cancelled_at).unwrap() >= placed);
    assert_eq!(
        listed[0],
        json!({
            "id": second["id"], "petId": rex, "petName": "Rex", "quantity": 3, "unitPrice": 2500,
            "total": 7500,
            "placedAt": second["placedAt"], "cancelledAt": cancelled_at,
        })
    );
    // The open order is still an order, and not among the cancelled.
    let open = app.get_json("/store/orders").await;
    assert_eq!(open.as_array().unwrap().len(), 1);
    assert_eq!(open[0]["id"], kept["id"]);
    let page = app.get("/store/cancelled-orders?limit=1&offset=1").await;
    assert_eq!(header(&page, "x-total-count"), "2");
    assert_eq!(body(page).await[0]["id"], first["id"]);
}

#[tokio::test]
async fn the_cancelled_orders_list_refuses_a_filter_it_does_not_have() {
    let app = TestApp::spawn().await;
    for bad in [
        "?after=1",
        "?petId=1",
        "?limit=0",
        "?limit=501",
        "?offset=-1",
    ] {
        let res = app.get(&format!("/store/cancelled-orders{bad}")).await;
        assert_error(res, 400, "bad_request").await;
    }
}

#[tokio::test]
async fn an_order_keeps_its_pets_name_as_placed_after_the_pet_is_renamed_or_deleted() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let axolotl = app.pet_with_stock("Axolotl", cat, 3).await;
    let sold = app.order(axolotl, 2).await;
    let cancelled = app.order(axolotl, 1).await;
    assert_eq!(sold["petName"], "Axolotl");
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/pets/{axolotl}"),
            json!({ "name": "Mexican walking fish" }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let path = format!("/store/orders/{}", sold["id"]);
    assert_eq!(app.get_json(&path).await["petName"], "Axolotl");
    assert_eq!(app.complete(&sold).await.status(), 200);
    let cancel = format!("/store/orders/{}", cancelled["id"]);
    assert_eq!(app.delete(&cancel).await.status(), 204);
    assert_eq!(app.delete(&format!("/pets/{axolotl}")).await.status(), 204);

    let order = app.get_json(&path).await;
    assert_eq!(order["petName"], "Axolotl");
    let listed = app
        .get_json(&format!("/store/orders?petId={axolotl}&complete=true"))
        .await;
    assert_eq!(listed[0]["id"], sold["id"]);
    assert_eq!(listed[0]["petName"], "Axolotl");
    let gone = app.get_json("/store/cancelled-orders").await;
    assert_eq!(gone[0]["id"], cancelled["id"]);
    assert_eq!(gone[0]["petName"], "Axolotl");
}
