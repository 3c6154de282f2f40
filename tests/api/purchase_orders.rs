//! `/store/purchase-orders`: drafts, suggestions from low stock, sending, receiving into stock
//! (never past what was ordered), cancelling, the list and one order's CSV.

use reqwest::{Method, Response};
use serde_json::{json, Value};

use crate::suppliers::supplier;
use crate::support::{assert_error, body, header, TestApp};

/// A pet of `supplier` with a cost, `stock` units and (when given) a reorder point.
async fn stocked(app: &TestApp, name: &str, supplier: i64, cost: i64, stock: i64) -> i64 {
    let cat = app.category(&format!("{name} kind")).await;
    app.pet(name, cat)
        .no_status()
        .with("supplierId", supplier)
        .with("cost", cost)
        .stock(stock)
        .create()
        .await
}

/// A server with one supplier, Acme, and one of its pets, Guppy, that costs 120 and has
/// `stock` units.
async fn acme_with_guppy(stock: i64) -> (TestApp, i64, i64) {
    let app = TestApp::spawn().await;
    let acme = supplier(&app, "Acme").await;
    let guppy = stocked(&app, "Guppy", acme, 120, stock).await;
    (app, acme, guppy)
}

async fn draft(app: &TestApp, supplier: i64, lines: Value) -> Value {
    let res = app
        .post(
            "/store/purchase-orders",
            json!({ "supplierId": supplier, "lines": lines }),
        )
        .await;
    assert_eq!(res.status(), 201, "creating a purchase order");
    body(res).await
}

async fn act(app: &TestApp, id: &Value, what: &str) -> Response {
    app.post(&format!("/store/purchase-orders/{id}/{what}"), json!({}))
        .await
}

async fn receive(app: &TestApp, id: &Value, lines: Value) -> Response {
    app.post(
        &format!("/store/purchase-orders/{id}/receive"),
        json!({ "lines": lines }),
    )
    .await
}

/// Asserts an Error object with `code`, and the `line` of the request it names.
async fn assert_line_error(res: Response, status: u16, code: &str, line: usize) {
    assert_eq!(res.status().as_u16(), status);
    let error = body(res).await;
    assert_eq!(error["code"], code, "{error}");
    assert_eq!(error["line"], line, "{error}");
}

#[tokio::test]
async fn a_new_purchase_order_is_a_numbered_draft_whose_costs_default_to_the_pets() {
    let (app, acme, guppy) = acme_with_guppy(0).await;
    let tetra = stocked(&app, "Tetra", acme, 80, 0).await;
    let res = app
        .post(
            "/store/purchase-orders",
            json!({ "supplierId": acme, "note": " rush ", "lines": [
                { "petId": guppy, "quantity": 10 },
                { "petId": tetra, "quantity": 5, "cost": 75 }
            ] }),
        )
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(header(&res, "x-stability"), "beta");
    let location = header(&res, "location");
    let order = body(res).await;
    assert_eq!(location, format!("/store/purchase-orders/{}", order["id"]));
    assert_eq!(order["number"], 1);
    assert_eq!(order["status"], "draft");
    assert_eq!(order["supplierId"], acme);
    assert_eq!(order["note"], "rush");
    assert_eq!(
        order["lines"],
        json!([
            { "petId": guppy, "ordered": 10, "received": 0, "cost": 120 },
            { "petId": tetra, "ordered": 5, "received": 0, "cost": 75 }
        ])
    );
    assert_eq!(order["total"], 10 * 120 + 5 * 75);
    assert!(order["createdAt"].is_string());
    assert_eq!(
        (&order["sentAt"], &order["closedAt"]),
        (&json!(null), &json!(null))
    );
    assert_eq!(app.get_json(&location).await, order);
    let second = draft(&app, acme, json!([{ "petId": guppy, "quantity": 1 }])).await;
    assert_eq!(second["number"], 2);
}

#[tokio::test]
async fn a_purchase_order_with_bad_lines_is_refused_and_nothing_is_kept() {
    let (app, acme, guppy) = acme_with_guppy(0).await;
    let post = |body: Value| app.post("/store/purchase-orders", body);
    let res =
        post(json!({ "supplierId": 999, "lines": [{ "petId": guppy, "quantity": 1 }] })).await;
    assert!(assert_error(res, 422, "validation_failed")
        .await
        .contains("supplierId"));
    let res = post(json!({ "supplierId": acme, "lines": [] })).await;
    assert!(assert_error(res, 422, "validation_failed")
        .await
        .contains("lines"));
    for quantity in [0, 1_000_001] {
        let res = post(
            json!({ "supplierId": acme, "lines": [{ "petId": guppy, "quantity": quantity }] }),
        )
        .await;
        assert!(assert_error(res, 422, "validation_failed")
            .await
            .contains("lines[0].quantity"));
    }
    let twice = json!([{ "petId": guppy, "quantity": 1 }, { "petId": guppy, "quantity": 2 }]);
    let res = post(json!({ "supplierId": acme, "lines": twice })).await;
    assert!(assert_error(res, 422, "validation_failed")
        .await
        .contains("lines[1].petId"));
    let unknown = json!([{ "petId": guppy, "quantity": 1 }, { "petId": 999, "quantity": 2 }]);
    let res = post(json!({ "supplierId": acme, "lines": unknown })).await;
    assert_line_error(res, 422, "unknown_pet", 1).await;
    let many: Vec<Value> = (1..=201)
        .map(|p| json!({ "petId": p, "quantity": 1 }))
        .collect();
    let res = post(json!({ "supplierId": acme, "lines": many })).await;
    assert_error(res, 422, "validation_failed").await;
    assert_eq!(app.get_json("/store/purchase-orders").await, json!([]));
    // The refused ones took no number.
    let order = draft(&app, acme, json!([{ "petId": guppy, "quantity": 1 }])).await;
    assert_eq!(order["number"], 1);
}

#[tokio::test]
async fn suggest_orders_the_suppliers_low_pets_and_answers_204_when_nothing_is_low() {
    let (app, acme, guppy) = acme_with_guppy(2).await;
    let other = supplier(&app, "Other").await;
    let tetra = stocked(&app, "Tetra", acme, 80, 1).await;
    let plenty = stocked(&app, "Plenty", acme, 10, 50).await;
    let elsewhere = stocked(&app, "Elsewhere", other, 10, 0).await;
    let suggest = || {
        app.post(
            "/store/purchase-orders/suggest",
            json!({ "supplierId": acme }),
        )
    };
    assert_eq!(suggest().await.status(), 204);
    for (pet, point) in [(guppy, 5), (tetra, 3), (plenty, 5), (elsewhere, 5)] {
        let res = app
            .send_json(
                Method::PATCH,
                &format!("/store/inventory/{pet}"),
                json!({ "reorderPoint": point }),
            )
            .await;
        assert_eq!(res.status(), 200);
    }
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/pets/{tetra}"),
            json!({ "reorderQuantity": 24 }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = suggest().await;
    assert_eq!(res.status(), 201);
    let order = body(res).await;
    assert_eq!(order["status"], "draft");
    assert_eq!(order["supplierId"], acme);
    // Guppy: 2 × 5 − 2 = 8; Tetra: its reorder quantity.
    assert_eq!(
        order["lines"],
        json!([
            { "petId": guppy, "ordered": 8, "received": 0, "cost": 120 },
            { "petId": tetra, "ordered": 24, "received": 0, "cost": 80 }
        ])
    );
    let res = app
        .post(
            "/store/purchase-orders/suggest",
            json!({ "supplierId": 999 }),
        )
        .await;
    assert_error(res, 422, "validation_failed").await;
}

#[tokio::test]
async fn suggest_counts_what_open_orders_still_bring_so_asking_twice_orders_once() {
    let (app, acme, guppy) = acme_with_guppy(2).await;
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/store/inventory/{guppy}"),
            json!({ "reorderPoint": 5 }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let suggest = || {
        app.post(
            "/store/purchase-orders/suggest",
            json!({ "supplierId": acme }),
        )
    };
    // A hand-made draft of 2 counts as stock: 2 × 5 − (2 + 2) = 6 more.
    draft(&app, acme, json!([{ "petId": guppy, "quantity": 2 }])).await;
    let res = suggest().await;
    assert_eq!(res.status(), 201);
    let first = body(res).await;
    assert_eq!(first["lines"][0]["petId"], guppy);
    assert_eq!(first["lines"][0]["ordered"], 6);
    // 2 in stock and 8 coming is above the point: nothing more to order.
    assert_eq!(suggest().await.status(), 204);
    // A cancelled order brings nothing: the same 6 are suggested again.
    assert_eq!(act(&app, &first["id"], "cancel").await.status(), 200);
    let res = suggest().await;
    assert_eq!(res.status(), 201);
    let second = body(res).await;
    assert_eq!(second["lines"][0]["ordered"], 6);
    // A partly received order counts only what is left to come: 3 in stock, 5 + 2 coming.
    assert_eq!(act(&app, &second["id"], "send").await.status(), 200);
    let res = receive(
        &app,
        &second["id"],
        json!([{ "petId": guppy, "quantity": 1 }]),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(app.stock(guppy).await, 3);
    assert_eq!(suggest().await.status(), 204);
    let list = app
        .get_json(&format!("/store/purchase-orders?supplierId={acme}"))
        .await;
    assert_eq!(list.as_array().map(Vec::len), Some(3), "{list}");
}

#[tokio::test]
async fn a_drafts_lines_change_with_put_and_a_sent_orders_do_not() {
    let (app, acme, guppy) = acme_with_guppy(0).await;
    let tetra = stocked(&app, "Tetra", acme, 80, 0).await;
    let order = draft(&app, acme, json!([{ "petId": guppy, "quantity": 1 }])).await;
    let path = format!("/store/purchase-orders/{}", order["id"]);
    let lines =
        json!([{ "petId": tetra, "quantity": 3 }, { "petId": guppy, "quantity": 2, "cost": 100 }]);
    let res = app
        .send_json(
            Method::PUT,
            &path,
            json!({ "supplierId": acme, "lines": lines }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let changed = body(res).await;
    assert_eq!(changed["number"], order["number"]);
    assert_eq!(changed["total"], 3 * 80 + 2 * 100);
    assert_eq!(changed["lines"][0]["petId"], tetra);
    let res = act(&app, &order["id"], "send").await;
    assert_eq!(res.status(), 200);
    let sent = body(res).await;
    assert_eq!(sent["status"], "sent");
    assert!(sent["sentAt"].is_string());
    let res = app
        .send_json(
            Method::PUT,
            &path,
            json!({ "supplierId": acme, "lines": lines }),
        )
        .await;
    assert_error(res, 409, "conflict").await;
    assert_error(act(&app, &order["id"], "send").await, 409, "conflict").await;
    assert_eq!(app.get_json(&path).await, sent);
}

#[tokio::test]
async fn receiving_adds_to_stock_with_history_naming_the_order_partial_then_received() {
    let (app, acme, guppy) = acme_with_guppy(2).await;
    let tetra = stocked(&app, "Tetra", acme, 80, 0).await;
    let order = draft(
        &app,
        acme,
        json!([{ "petId": guppy, "quantity": 10 }, { "petId": tetra, "quantity": 4 }]),
    )
    .await;
    let id = &order["id"];
    assert_error(
        receive(&app, id, json!([{ "petId": guppy, "quantity": 1 }])).await,
        409,
        "conflict",
    )
    .await;
    assert_eq!(act(&app, id, "send").await.status(), 200);
    let res = receive(&app, id, json!([{ "petId": guppy, "quantity": 6 }])).await;
    assert_eq!(res.status(), 200);
    let partial = body(res).await;
    assert_eq!(partial["status"], "partial");
    assert_eq!(partial["lines"][0]["received"], 6);
    assert_eq!(partial["closedAt"], json!(null));
    assert_eq!(app.stock(guppy).await, 8);
    let history = app
        .get_json(&format!("/store/inventory/{guppy}/adjustments"))
        .await;
    assert_eq!(history[0]["source"], "received");
    assert_eq!(history[0]["delta"], 6);
    assert_eq!(history[0]["quantityAfter"], 8);
    assert_eq!(history[0]["purchaseOrderId"], *id);
    assert!(history[1].get("purchaseOrderId").is_none(), "{history}");
    assert_error(act(&app, id, "cancel").await, 409, "conflict").await;
    let res = receive(
        &app,
        id,
        json!([{ "petId": tetra, "quantity": 4 }, { "petId": guppy, "quantity": 4 }]),
    )
    .await;
    assert_eq!(res.status(), 200);
    let received = body(res).await;
    assert_eq!(received["status"], "received");
    assert!(received["closedAt"].is_string());
    assert_eq!((app.stock(guppy).await, app.stock(tetra).await), (12, 4));
    let closed = format!("/store/purchase-orders/{id}");
    for res in [
        receive(&app, id, json!([{ "petId": guppy, "quantity": 1 }])).await,
        act(&app, id, "send").await,
        act(&app, id, "cancel").await,
        app.send_json(
            Method::PUT,
            &closed,
            json!({ "supplierId": acme, "lines": [{ "petId": guppy, "quantity": 1 }] }),
        )
        .await,
    ] {
        assert_error(res, 409, "purchase_order_closed").await;
    }
    assert_eq!(app.stock(guppy).await, 12);
}

#[tokio::test]
async fn receiving_more_than_was_ordered_and_not_yet_received_is_over_receipt_and_changes_nothing()
{
    let (app, acme, guppy) = acme_with_guppy(0).await;
    let tetra = stocked(&app, "Tetra", acme, 80, 0).await;
    let stranger = stocked(&app, "Stranger", acme, 80, 0).await;
    let order = draft(
        &app,
        acme,
        json!([{ "petId": guppy, "quantity": 5 }, { "petId": tetra, "quantity": 2 }]),
    )
    .await;
    let id = &order["id"];
    act(&app, id, "send").await;
    assert_eq!(
        receive(&app, id, json!([{ "petId": guppy, "quantity": 3 }]))
            .await
            .status(),
        200
    );
    // The first line fits, the second does not: neither is received.
    let res = receive(
        &app,
        id,
        json!([{ "petId": tetra, "quantity": 1 }, { "petId": guppy, "quantity": 3 }]),
    )
    .await;
    assert_line_error(res, 409, "over_receipt", 1).await;
    let res = receive(&app, id, json!([{ "petId": stranger, "quantity": 1 }])).await;
    assert_line_error(res, 409, "over_receipt", 0).await;
    let now = app.get_json(&format!("/store/purchase-orders/{id}")).await;
    assert_eq!(now["status"], "partial");
    assert_eq!(
        (&now["lines"][0]["received"], &now["lines"][1]["received"]),
        (&json!(3), &json!(0))
    );
    assert_eq!((app.stock(guppy).await, app.stock(tetra).await), (3, 0));
    assert_eq!(
        receive(&app, id, json!([{ "petId": guppy, "quantity": 2 }]))
            .await
            .status(),
        200
    );
    assert_eq!(app.stock(guppy).await, 5);
}

#[tokio::test]
async fn a_receipt_sent_twice_with_one_idempotency_key_is_received_once() {
    let (app, acme, guppy) = acme_with_guppy(0).await;
    let order = draft(&app, acme, json!([{ "petId": guppy, "quantity": 5 }])).await;
    act(&app, &order["id"], "send").await;
    let path = format!("/store/purchase-orders/{}/receive", order["id"]);
    let send = || {
        app.request(Method::POST, &path)
            .header("Idempotency-Key", "delivery-17")
            .json(&json!({ "lines": [{ "petId": guppy, "quantity": 2 }] }))
            .send()
    };
    let first = send().await.unwrap();
    assert_eq!(first.status(), 200);
    let first = body(first).await;
    let again = send().await.unwrap();
    assert_eq!(again.status(), 200);
    assert_eq!(header(&again, "idempotent-replayed"), "true");
    assert_eq!(body(again).await, first);
    assert_eq!(app.stock(guppy).await, 2);
}

#[tokio::test]
async fn a_draft_or_a_sent_order_with_nothing_received_is_cancelled_and_then_closed() {
    let (app, acme, guppy) = acme_with_guppy(0).await;
    for send in [false, true] {
        let order = draft(&app, acme, json!([{ "petId": guppy, "quantity": 5 }])).await;
        if send {
            act(&app, &order["id"], "send").await;
        }
        let res = act(&app, &order["id"], "cancel").await;
        assert_eq!(res.status(), 200);
        let cancelled = body(res).await;
        assert_eq!(cancelled["status"], "cancelled");
        assert!(cancelled["closedAt"].is_string());
        let res = receive(
            &app,
            &order["id"],
            json!([{ "petId": guppy, "quantity": 1 }]),
        )
        .await;
        assert_error(res, 409, "purchase_order_closed").await;
    }
    assert_eq!(app.stock(guppy).await, 0);
    // A supplier named by purchase orders stays.
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/pets/{guppy}"),
            json!({ "supplierId": null }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_error(
        app.delete(&format!("/store/suppliers/{acme}")).await,
        409,
        "conflict",
    )
    .await;
}

#[tokio::test]
async fn the_list_is_newest_first_and_filters_by_status_and_supplier() {
    let (app, acme, guppy) = acme_with_guppy(0).await;
    let other = supplier(&app, "Other").await;
    let a = draft(&app, acme, json!([{ "petId": guppy, "quantity": 1 }])).await;
    let b = draft(&app, other, json!([{ "petId": guppy, "quantity": 1 }])).await;
    let c = draft(&app, acme, json!([{ "petId": guppy, "quantity": 1 }])).await;
    act(&app, &c["id"], "send").await;
    let ids = |list: Value| -> Vec<Value> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|o| o["id"].clone())
            .collect()
    };
    let res = app.get("/store/purchase-orders").await;
    assert_eq!(header(&res, "x-total-count"), "3");
    assert_eq!(
        ids(body(res).await),
        [c["id"].clone(), b["id"].clone(), a["id"].clone()]
    );
    let acmes = app
        .get_json(&format!("/store/purchase-orders?supplierId={acme}"))
        .await;
    assert_eq!(ids(acmes), [c["id"].clone(), a["id"].clone()]);
    let drafts = app.get_json("/store/purchase-orders?status=draft").await;
    assert_eq!(ids(drafts), [b["id"].clone(), a["id"].clone()]);
    let res = app.get("/store/purchase-orders?status=lost").await;
    assert_error(res, 400, "bad_request").await;
    assert_error(
        app.get("/store/purchase-orders/999").await,
        404,
        "not_found",
    )
    .await;
}

#[tokio::test]
async fn one_order_comes_as_csv_with_its_lines_and_formulas_guarded() {
    let app = TestApp::spawn().await;
    let acme = supplier(&app, "Acme").await;
    let cat = app.category("Fish").await;
    let pet = app
        .pet("=HYPERLINK(1)", cat)
        .no_status()
        .fields(json!({ "sku": "GUP-1", "barcode": "4006381333931", "cost": 120 }))
        .create()
        .await;
    let order = draft(&app, acme, json!([{ "petId": pet, "quantity": 3 }])).await;
    let text = app
        .get_csv(&format!("/store/purchase-orders/{}", order["id"]))
        .await;
    assert_eq!(
        text,
        format!(
            "petId,sku,barcode,name,ordered,received,cost,lineTotal\r\n\
             {pet},GUP-1,4006381333931,'=HYPERLINK(1),3,0,120,360\r\n"
        )
    );
}

#[tokio::test]
async fn receipts_at_the_same_moment_never_take_a_line_past_what_was_ordered() {
    let (app, acme, guppy) = acme_with_guppy(0).await;
    let order = draft(&app, acme, json!([{ "petId": guppy, "quantity": 5 }])).await;
    act(&app, &order["id"], "send").await;
    let path = format!("/store/purchase-orders/{}/receive", order["id"]);
    let tries = (0..12).map(|_| {
        app.request(Method::POST, &path)
            .json(&json!({ "lines": [{ "petId": guppy, "quantity": 1 }] }))
            .send()
    });
    let answers = futures_util::future::join_all(tries).await;
    let mut statuses: Vec<u16> = answers
        .into_iter()
        .map(|r| r.unwrap().status().as_u16())
        .collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [[200; 5].as_slice(), &[409; 7]].concat());
    assert_eq!(app.stock(guppy).await, 5);
    let now = app
        .get_json(&format!("/store/purchase-orders/{}", order["id"]))
        .await;
    assert_eq!(
        (&now["status"], &now["lines"][0]["received"]),
        (&json!("received"), &json!(5))
    );
}

#[tokio::test]
async fn a_purchase_order_announces_its_creation_and_each_change_of_state() {
    let (app, acme, guppy) = acme_with_guppy(0).await;
    let mut feed = crate::events::Feed::open(&app, None).await;
    let order = draft(&app, acme, json!([{ "petId": guppy, "quantity": 2 }])).await;
    act(&app, &order["id"], "send").await;
    assert_eq!(
        receive(
            &app,
            &order["id"],
            json!([{ "petId": guppy, "quantity": 1 }])
        )
        .await
        .status(),
        200
    );
    let mut seen = Vec::new();
    while seen.len() < 3 {
        let message = feed.next(std::time::Duration::from_secs(10)).await;
        if message.event.starts_with("purchase_order.") {
            assert_eq!(message.data["data"]["id"], order["id"]);
            seen.push((message.event, message.data["data"]["status"].clone()));
        }
    }
    assert_eq!(
        seen,
        [
            ("purchase_order.created".to_owned(), json!("draft")),
            ("purchase_order.changed".to_owned(), json!("sent")),
            ("purchase_order.changed".to_owned(), json!("partial")),
        ]
    );
}
