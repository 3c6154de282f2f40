//! `/store/shifts` (interface 1.2): a till's cash drawer opened with its float, the sales and
//! refunds of that till counted toward it, and its close with the Z report: expected cash,
//! counted cash, the difference and the totals by method, figures computed by hand.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::events::Feed;
use crate::support::{assert_error, assert_error_saying, body, TestApp};

/// Prices include 20 % tax; a pet with `price` and `stock` units; its id.
async fn pet(app: &TestApp, name: &str, price: i64, stock: i64) -> i64 {
    app.pet_for_sale(&format!("{name} shelf"), name, price, stock)
        .await
}

async fn taxed_at_twenty_percent_included(app: &TestApp) {
    app.set_profile(json!({ "taxIncluded": true, "defaultTaxRate": 2000 }))
        .await;
}

async fn sell(app: &TestApp, lines: Value, payments: Value, till: Option<&str>) -> Value {
    let mut sale = json!({ "lines": lines, "payments": payments });
    if let Some(till) = till {
        sale["till"] = json!(till);
    }
    let res = app.post("/store/sales", sale.clone()).await;
    assert_eq!(res.status(), 201, "selling {sale}");
    body(res).await
}

async fn refund(app: &TestApp, sale: &Value, pet: i64, quantity: i64, method: &str) -> Value {
    let res = app
        .post(
            &format!("/store/sales/{}/refunds", sale["id"]),
            json!({ "lines": [{ "petId": pet, "quantity": quantity }], "method": method,
                    "reason": "changed mind" }),
        )
        .await;
    assert_eq!(res.status(), 201);
    body(res).await
}

async fn open(app: &TestApp, till: &str, opening_cash: i64) -> Value {
    let res = app
        .post(
            "/store/shifts",
            json!({ "till": till, "openingCash": opening_cash }),
        )
        .await;
    assert_eq!(res.status(), 201, "opening a shift for {till}");
    assert_eq!(res.headers()["x-stability"], "beta");
    body(res).await
}

async fn close(app: &TestApp, id: &Value, counted: i64) -> reqwest::Response {
    app.post(
        &format!("/store/shifts/{id}/close"),
        json!({ "countedCash": counted }),
    )
    .await
}

fn one(method: &str, amount: i64) -> Value {
    json!([{ "method": method, "amount": amount }])
}

#[tokio::test]
async fn a_shift_counts_its_tills_sales_and_refunds_and_closes_with_a_short_drawer() {
    let app = TestApp::spawn().await;
    taxed_at_twenty_percent_included(&app).await;
    let food = pet(&app, "Kibble", 1_200, 20).await;
    let tank = pet(&app, "Tank", 4_500, 5).await;
    let shift = open(&app, "Front", 10_000).await;
    assert_eq!(shift["status"], "open");
    assert_eq!(shift["till"], "Front");
    assert_eq!(shift["openingCash"], 10_000);
    assert_eq!(shift["expectedCash"], 10_000);
    assert!(shift["openedBy"].is_string() && shift["openedAt"].is_string());
    for field in ["closedAt", "closedBy", "countedCash", "difference"] {
        assert!(shift[field].is_null(), "{field}: {shift}");
    }
    let id = &shift["id"];

    // Cash with change: 2 × 1,200 = 2,400 (tax 2,400 × 2,000 / 12,000 = 400), 5,000 given,
    // 2,600 back.
    let cash_sale = sell(
        &app,
        json!([{ "petId": food, "quantity": 2 }]),
        one("cash", 5_000),
        Some("Front"),
    )
    .await;
    assert_eq!(
        (&cash_sale["tax"], &cash_sale["change"]),
        (&json!(400), &json!(2_600))
    );
    // Card: 4,500 (tax 750).
    sell(
        &app,
        json!([{ "petId": tank, "quantity": 1 }]),
        one("card", 4_500),
        Some("Front"),
    )
    .await;
    // Split: 1,200 + 4,500 = 5,700 (tax 200 + 750 = 950), 3,000 by card and 3,000 in cash:
    // 300 back.
    let split = sell(
        &app,
        json!([{ "petId": food, "quantity": 1 }, { "petId": tank, "quantity": 1 }]),
        json!([{ "method": "card", "amount": 3_000 }, { "method": "cash", "amount": 3_000 }]),
        Some("Front"),
    )
    .await;
    assert_eq!(split["change"], 300);
    // Other: 1,200 (tax 200).
    sell(
        &app,
        json!([{ "petId": food, "quantity": 1 }]),
        one("other", 1_200),
        Some("Front"),
    )
    .await;
    // Another till's sale and a sale without a till count toward no shift of Front.
    sell(
        &app,
        json!([{ "petId": food, "quantity": 1 }]),
        one("cash", 1_200),
        Some("Back"),
    )
    .await;
    sell(
        &app,
        json!([{ "petId": food, "quantity": 1 }]),
        one("cash", 9_999),
        None,
    )
    .await;
    // A cash refund of one unit of the 2-unit line (1,200) and a card refund of the split's
    // tank (4,500): the till is the sale's.
    assert_eq!(
        refund(&app, &cash_sale, food, 1, "cash").await["amount"],
        1_200
    );
    assert_eq!(refund(&app, &split, tank, 1, "card").await["amount"], 4_500);

    // Running figures while open: cash taken 2,400 + 2,700 = 5,100; expected 10,000 + 5,100
    // − 1,200 refunded in cash = 13,900.
    let running = app.get_json(&format!("/store/shifts/{id}")).await;
    assert_eq!(running["status"], "open");
    assert_eq!(running["expectedCash"], 13_900);
    assert!(running["countedCash"].is_null() && running["difference"].is_null());
    assert!(running["closedAt"].is_null());

    let res = close(&app, id, 13_850).await;
    assert_eq!(res.status(), 200);
    let z = body(res).await;
    assert_eq!(z["status"], "closed");
    assert_eq!(z["openingCash"], 10_000);
    assert_eq!(z["expectedCash"], 13_900);
    assert_eq!(z["countedCash"], 13_850);
    assert_eq!(z["difference"], -50);
    assert_eq!(
        z["sales"],
        json!({ "count": 4, "total": 13_800, "tax": 2_300,
                "byMethod": { "cash": 5_100, "card": 7_500, "other": 1_200 } })
    );
    assert_eq!(z["refunds"], json!({ "count": 2, "amount": 5_700 }));
    assert!(z["closedAt"].is_string() && z["closedBy"].is_string());
    // The closed shift reads back the same, and a later sale of its till leaves it alone.
    sell(
        &app,
        json!([{ "petId": food, "quantity": 1 }]),
        one("cash", 1_200),
        Some("Front"),
    )
    .await;
    assert_eq!(app.get_json(&format!("/store/shifts/{id}")).await, z);
}

#[tokio::test]
async fn a_till_has_one_open_shift_and_a_shift_closes_once() {
    let app = TestApp::spawn().await;
    let front = open(&app, "Front", 5_000).await;
    let res = app
        .post(
            "/store/shifts",
            json!({ "till": " Front ", "openingCash": 0 }),
        )
        .await;
    assert_error_saying(res, 409, "shift_open", "Front").await;
    // Another till opens beside it.
    let back = open(&app, "Back", 0).await;
    assert_ne!(front["id"], back["id"]);

    assert_eq!(close(&app, &front["id"], 5_000).await.status(), 200);
    assert_error(close(&app, &front["id"], 5_000).await, 409, "shift_closed").await;
    assert_error(close(&app, &json!(999), 0).await, 404, "not_found").await;
    // Once closed, the till opens its next shift.
    let next = open(&app, "Front", 4_000).await;
    assert_ne!(next["id"], front["id"]);

    let listed = app.get_json("/store/shifts?till=Front").await;
    let ids: Vec<&Value> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["id"])
        .collect();
    assert_eq!(ids, [&next["id"], &front["id"]]);
    let closed = app.get_json("/store/shifts?status=closed").await;
    assert_eq!(closed.as_array().unwrap().len(), 1);
    assert_eq!(closed[0]["id"], front["id"]);
    let open_now = app.get_json("/store/shifts?status=open").await;
    assert_eq!(open_now.as_array().unwrap().len(), 2);
    let res = app.get("/store/shifts?status=ajar").await;
    assert_error(res, 400, "bad_request").await;
    // A till name longer than a till may have is refused by both lists that filter by it.
    let long = "t".repeat(41);
    for list in ["/store/shifts", "/store/sales"] {
        let res = app.get(&format!("{list}?till={long}")).await;
        let message = assert_error(res, 400, "bad_request").await;
        assert!(
            message.contains("\"till\" must be 1 to 40 characters"),
            "{list}: {message}"
        );
    }
}

#[tokio::test]
async fn opening_and_closing_refuse_bad_bodies_by_field_and_leave_nothing_open() {
    let app = TestApp::spawn().await;
    for (sent, field) in [
        (json!({ "openingCash": 0 }), "till"),
        (json!({ "till": "   ", "openingCash": 0 }), "till"),
        (json!({ "till": "t".repeat(41), "openingCash": 0 }), "till"),
        (json!({ "till": "Front" }), "openingCash"),
        (json!({ "till": "Front", "openingCash": -1 }), "openingCash"),
    ] {
        let res = app.post("/store/shifts", sent.clone()).await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.contains(field), "{sent}: {message}");
    }
    let res = app
        .post(
            "/store/shifts",
            json!({ "till": "Front", "openingCash": "ten" }),
        )
        .await;
    assert_error(res, 400, "bad_request").await;
    assert_eq!(app.get_json("/store/shifts").await, json!([]));
    let shift = open(&app, "Front", 0).await;
    let res = app
        .post(
            &format!("/store/shifts/{}/close", shift["id"]),
            json!({ "countedCash": -5 }),
        )
        .await;
    assert_error(res, 422, "validation_failed").await;
    let still = app
        .get_json(&format!("/store/shifts/{}", shift["id"]))
        .await;
    assert_eq!(still["status"], "open");
}

#[tokio::test]
async fn a_pos_key_opens_and_closes_shifts_and_a_readonly_key_only_reads_them() {
    let app = TestApp::spawn().await;
    let readonly = app.key("readonly", "business").await;
    let pos = app.key("pos", "business").await;
    let res = app
        .request_as(&readonly, Method::POST, "/store/shifts")
        .json(&json!({ "till": "Front", "openingCash": 100 }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    let res = app
        .request_as(&pos, Method::POST, "/store/shifts")
        .json(&json!({ "till": "Front", "openingCash": 100 }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let shift = body(res).await;
    assert_eq!(shift["openedBy"], "pos business");
    let path = format!("/store/shifts/{}/close", shift["id"]);
    let res = app
        .request_as(&readonly, Method::POST, &path)
        .json(&json!({ "countedCash": 100 }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    let res = app
        .send_as(
            &readonly,
            Method::GET,
            &format!("/store/shifts/{}", shift["id"]),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await["status"], "open");
    let res = app
        .request_as(&pos, Method::POST, &path)
        .json(&json!({ "countedCash": 100 }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let closed = body(res).await;
    assert_eq!(
        (&closed["closedBy"], &closed["difference"]),
        (&json!("pos business"), &json!(0))
    );
}

#[tokio::test]
async fn an_offline_sale_sent_while_the_shift_is_open_counts_toward_it_and_events_tell_of_both_ends(
) {
    let app = TestApp::spawn().await;
    let food = pet(&app, "Kibble", 1_000, 10).await;
    let mut feed = Feed::open(&app, None).await;
    let shift = open(&app, "Front", 2_000).await;
    // Made two hours ago, before this shift opened, by a till that was offline.
    let sold_at = (chrono::Utc::now() - chrono::Duration::hours(2))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let res = app
        .post(
            "/store/sales",
            json!({ "lines": [{ "petId": food, "quantity": 1 }], "payments": one("cash", 1_000),
                    "till": "Front", "soldAt": sold_at }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let z = body(close(&app, &shift["id"], 3_000).await).await;
    assert_eq!(z["sales"]["count"], 1);
    assert_eq!(
        (&z["expectedCash"], &z["difference"]),
        (&json!(3_000), &json!(0))
    );

    let mut seen = Vec::new();
    while seen.len() < 2 {
        let message = feed.next(Duration::from_secs(5)).await;
        if message.event.starts_with("shift.") {
            seen.push((message.event, message.data["data"].clone()));
        }
    }
    assert_eq!(seen[0].0, "shift.opened");
    assert_eq!(seen[0].1["id"], shift["id"]);
    assert_eq!(seen[1].0, "shift.closed");
    assert_eq!(seen[1].1, z);
}
