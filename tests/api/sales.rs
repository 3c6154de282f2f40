//! `/store/sales` (interface 1.2): a basket sold at once, with tax, payments and change; the
//! gapless `number`; the first failing line; offline sales; who sees the customer's contact.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::events::Feed;
use crate::support::{assert_error, body, header, ids_of, TestApp};

/// A pet with a price (and its own tax rate, if any) and `stock` units; its id.
async fn priced_pet(app: &TestApp, name: &str, price: i64, rate: Option<i64>, stock: i64) -> i64 {
    let category = app.category(&format!("{name} shelf")).await;
    let pet = app.pet(name, category).with("price", price).stock(stock);
    match rate {
        Some(rate) => pet.with("taxRate", rate),
        None => pet,
    }
    .create()
    .await
}

async fn sell(app: &TestApp, sale: Value) -> Value {
    let res = app.post("/store/sales", sale.clone()).await;
    assert_eq!(res.status(), 201, "selling {sale}");
    body(res).await
}

/// Asserts an Error object that names the refused `line` beside code, message and status.
async fn assert_line_error(res: reqwest::Response, status: u16, code: &str, line: usize) {
    assert_eq!(res.status().as_u16(), status);
    let error = body(res).await;
    assert_eq!(
        (&error["code"], &error["status"], &error["line"]),
        (&json!(code), &json!(status), &json!(line)),
        "{error}"
    );
    assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert_eq!(error.as_object().unwrap().len(), 4, "{error}");
}

fn cash(amount: i64) -> Value {
    json!([{ "method": "cash", "amount": amount }])
}

#[tokio::test]
async fn a_two_line_basket_is_sold_with_its_tax_change_and_an_order_per_line() {
    let app = TestApp::spawn().await;
    app.set_profile(json!({ "taxIncluded": false, "defaultTaxRate": 2000 }))
        .await;
    let food = priced_pet(&app, "Kibble", 1_250, None, 10).await;
    let guppy = priced_pet(&app, "Guppy", 199, Some(550), 20).await;

    let res = app
        .post(
            "/store/sales",
            json!({
                "lines": [{ "petId": food, "quantity": 2, "discount": 100 },
                          { "petId": guppy, "quantity": 3 }],
                "payments": [{ "method": "card", "amount": 2000 }, { "method": "cash", "amount": 2000 }],
                "till": "Front",
                "note": "birthday",
            }),
        )
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(res.headers()["x-stability"], "beta");
    let sale = body(res).await;
    let id = sale["id"].as_i64().unwrap();
    assert_eq!(sale["number"], 1);
    // Kibble: 2 × 1,250 − 100 = 2,400, tax 20 % = 480, total 2,880.
    // Guppy: 3 × 199 = 597, tax 5.5 % = 32.835 → 33, total 630.
    let lines = sale["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (
            &lines[0]["unitPrice"],
            &lines[0]["discount"],
            &lines[0]["taxRate"],
            &lines[0]["tax"],
            &lines[0]["total"]
        ),
        (
            &json!(1250),
            &json!(100),
            &json!(2000),
            &json!(480),
            &json!(2880)
        )
    );
    assert_eq!(
        (&lines[1]["taxRate"], &lines[1]["tax"], &lines[1]["total"]),
        (&json!(550), &json!(33), &json!(630))
    );
    assert_eq!(lines[0]["name"], "Kibble");
    assert_eq!(sale["subtotal"], 2_500 + 597);
    assert_eq!(sale["discount"], 100);
    assert_eq!(sale["tax"], 513);
    assert_eq!(sale["total"], 3_510);
    assert_eq!(sale["change"], 4_000 - 3_510);
    assert_eq!(sale["till"], "Front");
    assert_eq!(sale["note"], "birthday");
    assert_eq!(sale["refunded"], 0);
    assert_eq!(sale["customer"], Value::Null);
    assert!(sale["keyName"].is_string());
    assert_eq!(sale["soldAt"], sale["placedAt"]);

    assert_eq!(app.stock(food).await, 8);
    assert_eq!(app.stock(guppy).await, 17);
    for line in lines {
        let order = app
            .get_json(&format!("/store/orders/{}", line["orderId"]))
            .await;
        assert_eq!(order["complete"], true);
        assert_eq!(order["saleId"], id);
        assert_eq!(order["quantity"], line["quantity"]);
        assert_eq!(order["placedAt"], sale["soldAt"]);
    }
    let history = app
        .get_json(&format!("/store/inventory/{food}/adjustments"))
        .await;
    assert_eq!(history[0]["source"], "order");
    assert_eq!(history[0]["delta"], -2);
    assert_eq!(history[0]["orderId"], lines[0]["orderId"]);

    assert_eq!(app.get_json(&format!("/store/sales/{id}")).await, sale);
}

#[tokio::test]
async fn prices_that_include_tax_hold_the_tax_and_the_total_is_the_amount() {
    let app = TestApp::spawn().await;
    app.set_profile(json!({ "defaultTaxRate": 2000 })).await;
    let pet = priced_pet(&app, "Tank", 1_200, None, 1).await;
    let sale = sell(
        &app,
        json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(1_200) }),
    )
    .await;
    assert_eq!(
        (&sale["tax"], &sale["total"], &sale["change"]),
        (&json!(200), &json!(1200), &json!(0))
    );
}

#[tokio::test]
async fn numbers_count_from_one_and_a_refused_sale_takes_none() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Mouse", 500, None, 3).await;
    let one = json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(500) });
    assert_eq!(sell(&app, one.clone()).await["number"], 1);
    let res = app
        .post(
            "/store/sales",
            json!({ "lines": [{ "petId": pet, "quantity": 5 }], "payments": cash(2500) }),
        )
        .await;
    assert_line_error(res, 409, "insufficient_stock", 0).await;
    let res = app
        .post(
            "/store/sales",
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(1) }),
        )
        .await;
    assert_error(res, 422, "payment_mismatch").await;
    assert_eq!(sell(&app, one.clone()).await["number"], 2);
    assert_eq!(sell(&app, one).await["number"], 3);
}

#[tokio::test]
async fn the_first_failing_line_decides_the_answer_names_its_line_and_nothing_changes() {
    let app = TestApp::spawn().await;
    let fine = priced_pet(&app, "Hamster", 900, None, 5).await;
    let pending = priced_pet(&app, "Parrot", 9_000, None, 1).await;
    app.set_status(pending, "pending").await;
    let empty = priced_pet(&app, "Snake", 5_000, None, 0).await;
    let category = app.category("Misc").await;
    let unpriced = app.pet_with_stock("Pebble", category, 4).await;

    let sale = |lines: Value| json!({ "lines": lines, "payments": cash(100_000) });
    let cases = [
        (
            json!([{ "petId": fine, "quantity": 1 }, { "petId": pending, "quantity": 1 },
                { "petId": empty, "quantity": 1 }]),
            409,
            "pet_not_available",
            1,
        ),
        (
            json!([{ "petId": fine, "quantity": 1 }, { "petId": empty, "quantity": 1 },
                { "petId": pending, "quantity": 1 }]),
            409,
            "insufficient_stock",
            1,
        ),
        (
            json!([{ "petId": fine, "quantity": 6 }]),
            409,
            "insufficient_stock",
            0,
        ),
        (
            json!([{ "petId": fine, "quantity": 1 }, { "petId": unpriced, "quantity": 1 }]),
            422,
            "validation_failed",
            1,
        ),
        (
            json!([{ "petId": fine, "quantity": 1 }, { "petId": 999_999, "quantity": 1 }]),
            422,
            "unknown_pet",
            1,
        ),
        (
            json!([{ "petId": fine, "quantity": 2, "discount": 1_801 }]),
            422,
            "validation_failed",
            0,
        ),
    ];
    for (lines, status, code, line) in cases {
        let res = app.post("/store/sales", sale(lines.clone())).await;
        assert_line_error(res, status, code, line).await;
    }
    assert_eq!(app.stock(fine).await, 5, "nothing was taken");
    assert_eq!(app.get_json("/store/sales").await, json!([]));
    assert_eq!(app.get_json("/store/orders").await, json!([]));
}

#[tokio::test]
async fn payments_must_cover_the_total_and_only_cash_may_exceed_it() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Lizard", 1_000, None, 10).await;
    let line = json!([{ "petId": pet, "quantity": 1 }]);
    for payments in [
        json!([{ "method": "cash", "amount": 999 }]),
        json!([{ "method": "card", "amount": 1_001 }]),
        json!([{ "method": "card", "amount": 600 }, { "method": "other", "amount": 500 }]),
    ] {
        let res = app
            .post(
                "/store/sales",
                json!({ "lines": line, "payments": payments }),
            )
            .await;
        assert_error(res, 422, "payment_mismatch").await;
    }
    let sale = sell(
        &app,
        json!({ "lines": line, "payments": [{ "method": "card", "amount": 600 },
                                            { "method": "cash", "amount": 500 }] }),
    )
    .await;
    assert_eq!(sale["change"], 100);
    assert_eq!(app.stock(pet).await, 9);
}

#[tokio::test]
async fn the_last_unit_sold_makes_the_pet_sold() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Puppy", 50_000, None, 1).await;
    sell(
        &app,
        json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(50_000) }),
    )
    .await;
    let found = app.get_json(&format!("/pets?ids={pet}")).await;
    assert_eq!(found[0]["status"], "sold");
}

#[tokio::test]
async fn an_offline_sale_is_a_fact_recorded_past_stock_and_status_with_short_by() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Goldfish", 300, None, 2).await;
    app.set_status(pet, "sold").await;
    let sold_at = (chrono::Utc::now() - chrono::Duration::hours(3))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let sale = sell(
        &app,
        json!({ "lines": [{ "petId": pet, "quantity": 5 }], "payments": cash(1_500),
                "soldAt": sold_at, "till": "Market stall" }),
    )
    .await;
    assert_eq!(sale["soldAt"], sold_at);
    assert_ne!(sale["placedAt"], sold_at);
    assert_eq!(sale["lines"][0]["shortBy"], 3);
    assert_eq!(sale["total"], 1_500);
    assert_eq!(app.stock(pet).await, 0);
    let order = app
        .get_json(&format!("/store/orders/{}", sale["lines"][0]["orderId"]))
        .await;
    assert_eq!(order["placedAt"], sold_at);

    let mut feed = Feed::open(&app, Some(0)).await;
    let mut short = None;
    for _ in 0..40 {
        let message = feed.next(Duration::from_secs(5)).await;
        if message.event == "inventory.short" {
            short = Some(message.data);
            break;
        }
    }
    let short = short.expect("an inventory.short event");
    assert_eq!(short["data"]["petId"], pet);
    assert_eq!(short["data"]["shortBy"], 3);
    assert_eq!(short["data"]["saleId"], sale["id"]);

    // A sale sent within the minute is not offline: refused as any sale would be.
    let recent = (chrono::Utc::now() - chrono::Duration::seconds(10))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let res = app
        .post(
            "/store/sales",
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(300),
                    "soldAt": recent }),
        )
        .await;
    assert_line_error(res, 409, "pet_not_available", 0).await;
}

#[tokio::test]
async fn a_sold_at_too_far_ahead_or_behind_is_refused_naming_it() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Frog", 300, None, 2).await;
    for at in [
        chrono::Utc::now() + chrono::Duration::minutes(10),
        chrono::Utc::now() - chrono::Duration::days(8),
    ] {
        let res = app
            .post(
                "/store/sales",
                json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(300),
                        "soldAt": at.to_rfc3339() }),
            )
            .await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.starts_with("soldAt"), "{message}");
    }
}

#[tokio::test]
async fn readonly_and_pos_keys_see_the_customer_without_phone_and_email() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Kitten", 20_000, None, 3).await;
    let pos = app.key("pos", "business").await;
    let readonly = app.key("readonly", "business").await;
    let staff = app.key("staff", "business").await;
    let res = app
        .request_as(&pos, Method::POST, "/store/sales")
        .json(&json!({
            "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(20_000),
            "customer": { "name": "Ada", "phone": "+44 20 7946 0000", "email": "ada@example.com" },
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let location = header(&res, "location");
    let sale = body(res).await;
    assert_eq!(
        sale["customer"],
        json!({ "name": "Ada" }),
        "the pos key's own answer"
    );
    for key in [&pos, &readonly] {
        for path in [location.clone(), "/store/sales".to_owned()] {
            let res = app.send_as(key, Method::GET, &path).await;
            let got = body(res).await;
            let one = if got.is_array() { got[0].clone() } else { got };
            assert_eq!(one["customer"], json!({ "name": "Ada" }), "{path}");
        }
    }
    let res = app.send_as(&staff, Method::GET, &location).await;
    assert_eq!(
        body(res).await["customer"],
        json!({ "name": "Ada", "phone": "+44 20 7946 0000", "email": "ada@example.com" })
    );
}

#[tokio::test]
async fn a_readonly_key_may_not_sell() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Rabbit", 2_000, None, 3).await;
    let readonly = app.key("readonly", "business").await;
    let res = app
        .request_as(&readonly, Method::POST, "/store/sales")
        .json(&json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(2_000) }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    assert_eq!(app.stock(pet).await, 3);
}

#[tokio::test]
async fn a_repeated_sale_with_its_idempotency_key_replays_without_selling_again() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Canary", 1_500, None, 5).await;
    let sale = json!({ "lines": [{ "petId": pet, "quantity": 2 }], "payments": cash(3_000) });
    let send = |body: Value| {
        app.request(Method::POST, "/store/sales")
            .header("Idempotency-Key", "till-1-sale-77")
            .json(&body)
            .send()
    };
    let first = send(sale.clone()).await.unwrap();
    assert_eq!(first.status(), 201);
    let first = body(first).await;
    let again = send(sale.clone()).await.unwrap();
    assert_eq!(again.status(), 201);
    assert_eq!(body(again).await, first);
    assert_eq!(app.stock(pet).await, 3, "sold once");
    let mut other = sale;
    other["till"] = json!("Back");
    let res = send(other).await.unwrap();
    assert_error(res, 422, "idempotency_key_reused").await;
    assert_eq!(
        app.get_json("/store/sales").await.as_array().unwrap().len(),
        1
    );
}

#[tokio::test]
async fn sales_are_listed_newest_first_and_filtered_by_till_method_and_day() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Turtle", 1_000, None, 10).await;
    let line = json!([{ "petId": pet, "quantity": 1 }]);
    let a = sell(
        &app,
        json!({ "lines": line, "payments": cash(1_000), "till": "Front" }),
    )
    .await;
    let b = sell(
        &app,
        json!({ "lines": line, "payments": [{ "method": "card", "amount": 1_000 }], "till": "Back" }),
    )
    .await;
    let c = sell(
        &app,
        json!({ "lines": line, "payments": cash(2_000), "till": "Front" }),
    )
    .await;
    let ids = |list: Value| ids_of(&list);
    let (a, b, c) = (
        a["id"].as_i64().unwrap(),
        b["id"].as_i64().unwrap(),
        c["id"].as_i64().unwrap(),
    );
    assert_eq!(ids(app.get_json("/store/sales").await), vec![c, b, a]);
    assert_eq!(
        ids(app.get_json("/store/sales?till=Front").await),
        vec![c, a]
    );
    assert_eq!(ids(app.get_json("/store/sales?method=card").await), vec![b]);
    let res = app.get("/store/sales?limit=1").await;
    assert_eq!(header(&res, "x-total-count"), "3");
    assert!(header(&res, "link").contains("rel=\"next\""));
    let today = chrono::Utc::now().date_naive();
    let far = today - chrono::Days::new(3);
    assert_eq!(
        ids(app
            .get_json(&format!("/store/sales?from={far}&to={far}"))
            .await),
        Vec::<i64>::new()
    );
    let wide = format!(
        "/store/sales?from={}&to={}",
        today - chrono::Days::new(1),
        today + chrono::Days::new(1)
    );
    assert_eq!(ids(app.get_json(&wide).await).len(), 3);
    for bad in [
        "method=cheque",
        "from=yesterday",
        "staffId=0",
        "from=2026-02-02&to=2026-02-01",
    ] {
        let res = app.get(&format!("/store/sales?{bad}")).await;
        assert_error(res, 400, "bad_request").await;
    }
    let res = app.get("/store/sales/999999").await;
    assert_error(res, 404, "not_found").await;
}

#[tokio::test]
async fn parallel_sales_of_the_last_units_sell_each_once_and_number_them_without_gaps() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Axolotl", 4_000, None, 5).await;
    let tries = (0..12).map(|_| {
        app.post(
            "/store/sales",
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(4_000) }),
        )
    });
    let answers = futures_util::future::join_all(tries).await;
    let mut numbers = Vec::new();
    for res in answers {
        match res.status().as_u16() {
            201 => numbers.push(body(res).await["number"].as_i64().unwrap()),
            409 => {}
            other => panic!("unexpected {other}"),
        }
    }
    numbers.sort_unstable();
    assert_eq!(numbers, vec![1, 2, 3, 4, 5]);
    assert_eq!(app.stock(pet).await, 0);
}

#[tokio::test]
async fn a_body_out_of_bounds_is_refused_naming_the_field() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Gecko", 700, None, 5).await;
    let cases = [
        (json!({ "lines": [], "payments": cash(1) }), 422, "lines"),
        (
            json!({ "lines": [{ "petId": pet, "quantity": 0 }], "payments": cash(1) }),
            422,
            "lines[0].quantity",
        ),
        (
            json!({ "lines": [{ "petId": pet, "quantity": 1 }, { "petId": pet, "quantity": 1 }],
                 "payments": cash(1_400) }),
            422,
            "lines[1].petId",
        ),
        (
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": [] }),
            422,
            "payments",
        ),
        (
            json!({ "lines": [{ "petId": pet, "quantity": 1 }],
                 "payments": [{ "method": "cheque", "amount": 700 }] }),
            422,
            "payments[0].method",
        ),
        (
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(700),
                 "till": "" }),
            422,
            "till",
        ),
        (
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "payments": cash(700),
                 "coupon": "X" }),
            400,
            "coupon",
        ),
    ];
    for (sale, status, field) in cases {
        let res = app.post("/store/sales", sale.clone()).await;
        let code = if status == 400 {
            "bad_request"
        } else {
            "validation_failed"
        };
        let message = assert_error(res, status, code).await;
        assert!(message.contains(field), "{sale}: {message}");
    }
    assert_eq!(app.stock(pet).await, 5);
}

/// Sells `quantity` units of a new pet at `price` (prices include tax at 20 %); the sale.
async fn sold(app: &TestApp, price: i64, quantity: i64, stock: i64) -> Value {
    app.set_profile(json!({ "defaultTaxRate": 2000 })).await;
    let pet = priced_pet(app, "Refundable", price, None, stock).await;
    sell(
        app,
        json!({ "lines": [{ "petId": pet, "quantity": quantity }],
                "payments": cash(price * quantity), "till": "Front" }),
    )
    .await
}

async fn refund(app: &TestApp, sale: &Value, body: Value) -> reqwest::Response {
    app.post(&format!("/store/sales/{}/refunds", sale["id"]), body)
        .await
}

#[tokio::test]
async fn refunds_give_the_rounded_share_and_the_last_gives_exactly_what_is_left() {
    let app = TestApp::spawn().await;
    // 3 × 333 = 999, tax included at 20 %: 166.5 → 167.
    let sale = sold(&app, 333, 3, 3).await;
    let pet = sale["lines"][0]["petId"].as_i64().unwrap();
    assert_eq!((&sale["total"], &sale["tax"]), (&json!(999), &json!(167)));
    let mut amounts = Vec::new();
    let mut taxes = Vec::new();
    for _ in 0..3 {
        let res = refund(
            &app,
            &sale,
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": "cash",
                    "reason": "changed mind" }),
        )
        .await;
        assert_eq!(res.status(), 201);
        let given = body(res).await;
        assert_eq!(given["saleId"], sale["id"]);
        assert_eq!(given["restock"], true);
        assert_eq!(given["method"], "cash");
        assert_eq!(given["amount"], given["lines"][0]["amount"]);
        amounts.push(given["amount"].as_i64().unwrap());
        taxes.push(given["lines"][0]["tax"].as_i64().unwrap());
    }
    // 999 / 3 = 333 each; tax 167 / 3 = 55.67 → 56, 56, then what is left: 55.
    assert_eq!(amounts, vec![333, 333, 333]);
    assert_eq!(taxes, vec![56, 56, 55]);
    let after = app.get_json(&format!("/store/sales/{}", sale["id"])).await;
    assert_eq!(after["refunded"], 999);
    assert_eq!(app.stock(pet).await, 3, "every unit is back");
    let history = app
        .get_json(&format!("/store/inventory/{pet}/adjustments"))
        .await;
    assert_eq!(history[0]["source"], "refund");
    assert_eq!(history[0]["delta"], 1);
    assert_eq!(history[0]["reason"], "changed mind");
    assert_eq!(history[0]["orderId"], sale["lines"][0]["orderId"]);
    let pet_now = app.get_json(&format!("/pets?ids={pet}")).await;
    assert_eq!(
        pet_now[0]["status"], "available",
        "the sale had sold it; the refund undid that"
    );

    let res = refund(
        &app,
        &sale,
        json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": "cash", "reason": "again" }),
    )
    .await;
    assert_line_error(res, 409, "refund_exceeds_sale", 0).await;
}

#[tokio::test]
async fn a_refund_past_what_was_sold_or_of_a_pet_not_sold_is_refused_and_nothing_changes() {
    let app = TestApp::spawn().await;
    let sale = sold(&app, 1_000, 2, 5).await;
    let pet = sale["lines"][0]["petId"].as_i64().unwrap();
    let other = priced_pet(&app, "Not sold", 100, None, 1).await;
    for (lines, line) in [
        (json!([{ "petId": pet, "quantity": 3 }]), 0),
        (
            json!([{ "petId": pet, "quantity": 1 }, { "petId": other, "quantity": 1 }]),
            1,
        ),
    ] {
        let res = refund(
            &app,
            &sale,
            json!({ "lines": lines, "method": "card", "reason": "x" }),
        )
        .await;
        assert_line_error(res, 409, "refund_exceeds_sale", line).await;
    }
    assert_eq!(
        app.get_json(&format!("/store/sales/{}", sale["id"])).await["refunded"],
        0
    );
    assert_eq!(app.stock(pet).await, 3);
    let res = app
        .post(
            "/store/sales/999999/refunds",
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": "cash", "reason": "x" }),
        )
        .await;
    assert_error(res, 404, "not_found").await;
    for (body, field) in [
        (
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": "cash" }),
            "reason",
        ),
        (
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": "cash", "reason": "" }),
            "reason",
        ),
        (
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": "cash",
                 "reason": "x".repeat(201) }),
            "reason",
        ),
        (
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": "iou", "reason": "x" }),
            "method",
        ),
        (
            json!({ "lines": [], "method": "cash", "reason": "x" }),
            "lines",
        ),
        (
            json!({ "lines": [{ "petId": pet, "quantity": 0 }], "method": "cash", "reason": "x" }),
            "lines[0].quantity",
        ),
    ] {
        let res = refund(&app, &sale, body).await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.starts_with(field), "{message}");
    }
}

#[tokio::test]
async fn a_refund_without_restock_leaves_the_stock_and_only_staff_may_refund() {
    let app = TestApp::spawn().await;
    let sale = sold(&app, 500, 2, 4).await;
    let pet = sale["lines"][0]["petId"].as_i64().unwrap();
    let pos = app.key("pos", "business").await;
    let res = app
        .request_as(
            &pos,
            Method::POST,
            &format!("/store/sales/{}/refunds", sale["id"]),
        )
        .json(
            &json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": "cash", "reason": "x" }),
        )
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    let res = refund(
        &app,
        &sale,
        json!({ "lines": [{ "petId": pet, "quantity": 2 }], "method": "other",
                "reason": "broken on the way home", "restock": false, "till": "Back" }),
    )
    .await;
    assert_eq!(res.status(), 201);
    let given = body(res).await;
    assert_eq!(
        (&given["amount"], &given["restock"], &given["till"]),
        (&json!(1000), &json!(false), &json!("Back"))
    );
    assert_eq!(app.stock(pet).await, 2, "not restocked");
}

#[tokio::test]
async fn a_refund_with_restock_null_is_refused_naming_it_and_nothing_is_refunded() {
    let app = TestApp::spawn().await;
    let sale = sold(&app, 500, 2, 4).await;
    let pet = sale["lines"][0]["petId"].as_i64().unwrap();
    let res = refund(
        &app,
        &sale,
        json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": "cash",
                "reason": "x", "restock": null }),
    )
    .await;
    let message = assert_error(res, 422, "validation_failed").await;
    assert!(message.starts_with("restock"), "{message}");
    let refunds = app
        .get_json(&format!("/store/sales/{}/refunds", sale["id"]))
        .await;
    assert_eq!(refunds, json!([]));
    assert_eq!(app.stock(pet).await, 2);
}

#[tokio::test]
async fn a_sale_line_with_discount_null_is_sold_without_a_discount() {
    let app = TestApp::spawn().await;
    let pet = priced_pet(&app, "Gecko", 700, None, 5).await;
    let sale = sell(
        &app,
        json!({ "lines": [{ "petId": pet, "quantity": 1, "discount": null }],
                "payments": cash(700) }),
    )
    .await;
    assert_eq!(
        (&sale["lines"][0]["discount"], &sale["total"]),
        (&json!(0), &json!(700))
    );
}

#[tokio::test]
async fn a_repeated_refund_with_its_idempotency_key_replays_without_refunding_again() {
    let app = TestApp::spawn().await;
    let sale = sold(&app, 700, 3, 3).await;
    let pet = sale["lines"][0]["petId"].as_i64().unwrap();
    let send = || {
        app.request(
            Method::POST,
            &format!("/store/sales/{}/refunds", sale["id"]),
        )
        .header("Idempotency-Key", "refund-1")
        .json(
            &json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": "cash",
                           "reason": "x" }),
        )
        .send()
    };
    let first = send().await.unwrap();
    assert_eq!(first.status(), 201);
    let first = body(first).await;
    let again = send().await.unwrap();
    assert_eq!(again.status(), 201);
    assert_eq!(body(again).await, first);
    assert_eq!(
        app.get_json(&format!("/store/sales/{}", sale["id"])).await["refunded"],
        700
    );
    assert_eq!(app.stock(pet).await, 1);
}

#[tokio::test]
async fn a_sales_refunds_are_listed_oldest_first_to_any_key_and_an_unknown_sale_is_not_found() {
    let app = TestApp::spawn().await;
    let sale = sold(&app, 400, 3, 3).await;
    let pet = sale["lines"][0]["petId"].as_i64().unwrap();
    let path = format!("/store/sales/{}/refunds", sale["id"]);
    assert_eq!(app.get_json(&path).await, json!([]), "none yet");
    let mut given = Vec::new();
    for (quantity, method) in [(1, "cash"), (2, "card")] {
        let res = refund(
            &app,
            &sale,
            json!({ "lines": [{ "petId": pet, "quantity": quantity }], "method": method,
                    "reason": "returned", "restock": quantity == 1 }),
        )
        .await;
        assert_eq!(res.status(), 201);
        given.push(body(res).await);
    }
    let readonly = app.key("readonly", "business").await;
    let res = app.send_as(&readonly, Method::GET, &path).await;
    assert_eq!(res.status(), 200);
    let listed = body(res).await;
    assert_eq!(listed, json!(given), "each refund as its POST answered it");
    assert_eq!(
        listed[1]["lines"][0]["amount"], 800,
        "the last gives what is left"
    );
    assert_eq!(listed[1]["restock"], false);
    let res = app.get("/store/sales/999999/refunds").await;
    assert_error(res, 404, "not_found").await;
}
