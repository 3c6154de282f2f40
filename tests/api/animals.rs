//! Animals (interface 1.2): a pet's `animal` record and its validation, the one-individual
//! stock rule on every path that changes stock, the deletion rule, holds (`on_hold` for orders
//! and sales, never for an offline sale) and the buyer a sale of an animal must name.

use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, assert_error_saying, body, TestApp};

fn today() -> chrono::NaiveDate {
    // The test store's time zone is the machine's; a day either side is kept out of the
    // assertions that depend on it.
    chrono::Local::now().date_naive()
}

fn day(offset: i64) -> String {
    (today() + chrono::Duration::days(offset)).to_string()
}

/// A priced, available pet that is one animal; `stock` is 0 or 1. Its id.
async fn animal_pet(app: &TestApp, name: &str, animal: Value, stock: i64) -> i64 {
    let category = app.category(&format!("{name} kind")).await;
    app.pet(name, category)
        .with("price", 50_000)
        .with("animal", animal)
        .stock(stock)
        .create()
        .await
}

async fn set_stock(app: &TestApp, pet: i64, quantity: i64) -> reqwest::Response {
    app.send_json(
        Method::PUT,
        &format!("/store/inventory/{pet}"),
        json!({ "quantity": quantity }),
    )
    .await
}

async fn pet(app: &TestApp, id: i64) -> Value {
    app.get_json(&format!("/pets?ids={id}")).await[0].clone()
}

async fn patch(app: &TestApp, id: i64, body: Value) -> reqwest::Response {
    app.send_json(Method::PATCH, &format!("/pets/{id}"), body)
        .await
}

fn sale(pet: i64, customer: Value) -> Value {
    json!({ "lines": [{ "petId": pet, "quantity": 1 }],
            "payments": [{ "method": "cash", "amount": 50_000 }],
            "customer": customer })
}

fn buyer() -> Value {
    json!({ "name": "Ann Lee", "phone": "+44 20 7946 0000" })
}

#[tokio::test]
async fn a_pet_keeps_its_animal_record_and_put_and_patch_replace_or_remove_it_whole() {
    let app = TestApp::spawn().await;
    let record = json!({ "sex": "female", "bornOn": day(-70), "breed": "Beagle",
                         "colour": "tricolour", "microchip": "985112345678901",
                         "source": "Hillside Kennels", "arrivedOn": day(-10) });
    let id = animal_pet(&app, "Bella", record.clone(), 0).await;
    assert_eq!(pet(&app, id).await["animal"], record);

    // PATCH replaces the whole record: fields not sent are gone.
    let res = patch(
        &app,
        id,
        json!({ "animal": { "sex": "female", "breed": "Harrier" } }),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        body(res).await["animal"],
        json!({ "sex": "female", "breed": "Harrier" })
    );
    // A PATCH without `animal` leaves it alone.
    let res = patch(&app, id, json!({ "name": "Bella II" })).await;
    assert_eq!(body(res).await["animal"]["breed"], "Harrier");
    // `null` removes it.
    let res = patch(&app, id, json!({ "animal": null })).await;
    assert_eq!(res.status(), 200);
    assert!(body(res).await.get("animal").is_none());
    assert!(pet(&app, id).await.get("animal").is_none());

    // PUT replaces the whole pet, the record with it.
    let category = pet(&app, id).await["categoryId"].clone();
    let res = app
        .send_json(
            Method::PUT,
            &format!("/pets/{id}"),
            json!({ "name": "Bella", "categoryId": category, "animal": { "sex": "unknown" } }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(pet(&app, id).await["animal"], json!({ "sex": "unknown" }));
}

#[tokio::test]
async fn a_bad_animal_record_is_refused_naming_its_field_and_nothing_changes() {
    let app = TestApp::spawn().await;
    let id = animal_pet(&app, "Rex", json!({ "sex": "male" }), 0).await;
    let long = "x".repeat(101);
    for (animal, field) in [
        (json!({}), "animal.sex"),
        (json!({ "sex": "boy" }), "animal.sex"),
        (
            json!({ "sex": "male", "microchip": "12345" }),
            "animal.microchip",
        ),
        (
            json!({ "sex": "male", "microchip": "98511234567890a" }),
            "animal.microchip",
        ),
        (
            json!({ "sex": "male", "microchip": 985112345678901_i64 }),
            "animal.microchip",
        ),
        (json!({ "sex": "male", "bornOn": day(2) }), "animal.bornOn"),
        (
            json!({ "sex": "male", "arrivedOn": day(2) }),
            "animal.arrivedOn",
        ),
        (
            json!({ "sex": "male", "bornOn": "2026-02-30" }),
            "animal.bornOn",
        ),
        (json!({ "sex": "male", "breed": long }), "animal.breed"),
        (
            json!({ "sex": "male", "colour": "y".repeat(101) }),
            "animal.colour",
        ),
        (
            json!({ "sex": "male", "source": "z".repeat(201) }),
            "animal.source",
        ),
        (json!({ "sex": "male", "weight": 3 }), "animal.weight"),
        (json!("male"), "animal"),
    ] {
        let message = assert_error(
            patch(&app, id, json!({ "animal": animal })).await,
            422,
            "validation_failed",
        )
        .await;
        assert!(message.starts_with(field), "{animal}: {message}");
    }
    assert_eq!(pet(&app, id).await["animal"], json!({ "sex": "male" }));
    // The longest values are accepted.
    let res = patch(
        &app,
        id,
        json!({ "animal": { "sex": "male", "breed": "b".repeat(100), "source": "s".repeat(200),
                            "bornOn": day(-1), "arrivedOn": day(-1) } }),
    )
    .await;
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn an_animal_s_optional_fields_sent_as_null_are_the_same_as_left_out() {
    let app = TestApp::spawn().await;
    let id = animal_pet(
        &app,
        "Nulla",
        json!({ "sex": "female", "bornOn": null, "breed": null, "colour": null,
                "microchip": null, "source": null, "arrivedOn": null }),
        0,
    )
    .await;
    assert_eq!(pet(&app, id).await["animal"], json!({ "sex": "female" }));
}

#[tokio::test]
async fn a_microchip_names_one_animal_only() {
    let app = TestApp::spawn().await;
    let chip = "985112345678902";
    let first = animal_pet(&app, "Milo", json!({ "sex": "male", "microchip": chip }), 0).await;
    let category = app.category("Cats").await;
    let res = app
        .post(
            "/pets",
            json!({ "name": "Otis", "categoryId": category,
                    "animal": { "sex": "male", "microchip": chip } }),
        )
        .await;
    assert_error_saying(res, 409, "duplicate_code", chip).await;
    let second = animal_pet(&app, "Otis", json!({ "sex": "male" }), 0).await;
    let res = patch(
        &app,
        second,
        json!({ "animal": { "sex": "male", "microchip": chip } }),
    )
    .await;
    assert_error(res, 409, "duplicate_code").await;
    // The animal itself may be saved again with its own chip; once freed, the chip is free.
    let res = patch(
        &app,
        first,
        json!({ "animal": { "sex": "male", "microchip": chip } }),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        patch(&app, first, json!({ "animal": null })).await.status(),
        200
    );
    let res = patch(
        &app,
        second,
        json!({ "animal": { "sex": "male", "microchip": chip } }),
    )
    .await;
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn an_animal_is_one_individual_on_every_path_that_changes_stock() {
    let app = TestApp::spawn().await;
    let id = animal_pet(&app, "Pip", json!({ "sex": "female" }), 1).await;

    assert_error(set_stock(&app, id, 2).await, 422, "validation_failed").await;
    let res = app
        .post(
            &format!("/store/inventory/{id}/adjustments"),
            json!({ "delta": 1, "reason": "found another" }),
        )
        .await;
    assert_error(res, 422, "validation_failed").await;
    assert_eq!(app.stock(id).await, 1);

    // A CSV import that sets two is an error of its line.
    let csv = format!("id,name,category,quantity\r\n{id},Pip,Pip kind,2\r\n");
    let res = app
        .send_raw(Method::POST, "/store/import/pets", Some("text/csv"), csv)
        .await;
    assert_eq!(res.status(), 422);
    let summary = body(res).await;
    assert!(summary.to_string().contains("quantity"), "{summary}");
    assert_eq!(app.stock(id).await, 1);

    // Down to 0 and back to 1 is fine.
    assert_eq!(set_stock(&app, id, 0).await.status(), 200);
    assert_eq!(set_stock(&app, id, 1).await.status(), 200);

    // A pet with 3 in stock cannot become one animal.
    let plain = app
        .pet_with_stock("Three mice", app.category("Mice").await, 3)
        .await;
    let res = patch(&app, plain, json!({ "animal": { "sex": "unknown" } })).await;
    assert_error(res, 422, "validation_failed").await;
    assert!(pet(&app, plain).await.get("animal").is_none());
}

#[tokio::test]
async fn a_stocktake_refuses_a_count_of_two_for_an_animal_as_it_is_counted() {
    let app = TestApp::spawn().await;
    let id = animal_pet(&app, "Pip", json!({ "sex": "female" }), 1).await;
    let take = body(app.post("/store/stocktakes", json!({})).await).await["id"]
        .as_i64()
        .unwrap();
    let path = format!("/store/stocktakes/{take}/lines/{id}");
    let count = |n: i64| app.send_json(Method::PUT, &path, json!({ "counted": n }));
    let message = assert_error(count(2).await, 422, "validation_failed").await;
    assert!(message.starts_with("counted"), "{message}");
    assert!(message.contains("0 or 1"), "{message}");
    // Nothing was counted, so applying changes nothing.
    let lines = app.get_json(&format!("/store/stocktakes/{take}")).await;
    assert_eq!(lines["lines"], json!([]), "{lines}");

    // 0 and 1 are counts an animal can have; applying 0 sets its stock to 0.
    assert_eq!(count(1).await.status(), 200);
    assert_eq!(count(0).await.status(), 200);
    let res = app
        .post(&format!("/store/stocktakes/{take}/apply"), json!({}))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(app.stock(id).await, 0);
}

#[tokio::test]
async fn a_hold_whose_last_day_has_passed_is_no_longer_shown_on_the_pet() {
    let app = TestApp::spawn().await;
    let id = animal_pet(&app, "Wren", json!({ "sex": "female" }), 1).await;
    let live = json!({ "until": day(2), "reason": "Reserved for Mrs Lee" });
    let res = patch(&app, id, json!({ "hold": live })).await;
    assert_eq!(body(res).await["hold"], live);
    // Read through the list once, so the page is remembered with the hold on it.
    assert_eq!(pet(&app, id).await["hold"], live);

    let ended = json!({ "until": day(-2), "reason": "Vet check" });
    let res = patch(&app, id, json!({ "hold": ended })).await;
    assert_eq!(res.status(), 200);
    assert!(body(res).await.get("hold").is_none());
    assert!(pet(&app, id).await.get("hold").is_none());
    let res = app.get(&format!("/pets/{id}")).await;
    assert!(body(res).await.get("hold").is_none());
    let listed = app.get_json("/pets?limit=100").await;
    let shown = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap();
    assert!(shown.get("hold").is_none(), "{shown}");

    // A new pet sent with a hold that already ended is stored without it.
    let category = app.category("Finches").await;
    let res = app
        .post(
            "/pets",
            json!({ "name": "Zebra finch", "categoryId": category, "hold": ended }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let created = body(res).await;
    assert!(created.get("hold").is_none(), "{created}");
}

#[tokio::test]
async fn an_animal_with_care_or_a_sale_is_kept_and_others_are_deleted() {
    let app = TestApp::spawn().await;
    let fresh = animal_pet(&app, "Newt", json!({ "sex": "unknown" }), 0).await;
    assert_eq!(app.delete(&format!("/pets/{fresh}")).await.status(), 204);

    let sold = animal_pet(&app, "Sunny", json!({ "sex": "male" }), 1).await;
    let res = app.post("/store/sales", sale(sold, buyer())).await;
    assert_eq!(res.status(), 201);
    assert_error_saying(
        app.delete(&format!("/pets/{sold}")).await,
        409,
        "conflict",
        "sold",
    )
    .await;
    assert_eq!(pet(&app, sold).await["status"], "sold");
}

#[tokio::test]
async fn a_hold_refuses_orders_and_sales_through_its_last_day_and_clears_with_null() {
    let app = TestApp::spawn().await;
    let id = animal_pet(&app, "Kiwi", json!({ "sex": "female" }), 1).await;
    let hold = json!({ "until": day(1), "reason": "Quarantine after arrival" });
    let res = patch(&app, id, json!({ "hold": hold })).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await["hold"], hold);

    let res = app
        .post("/store/orders", json!({ "petId": id, "quantity": 1 }))
        .await;
    assert_error_saying(res, 409, "on_hold", "Quarantine").await;
    let res = app.post("/store/sales", sale(id, buyer())).await;
    assert_eq!(res.status(), 409);
    let error = body(res).await;
    assert_eq!(
        (&error["code"], &error["line"]),
        (&json!("on_hold"), &json!(0)),
        "{error}"
    );
    // Nothing moved.
    assert_eq!(app.stock(id).await, 1);

    // A pos key cannot set or clear a hold.
    let pos = app.key("pos", "free").await;
    let res = app
        .request_as(&pos, Method::PATCH, &format!("/pets/{id}"))
        .json(&json!({ "hold": null }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;

    // A hold that ended yesterday holds nothing.
    let res = patch(
        &app,
        id,
        json!({ "hold": { "until": day(-2), "reason": "Vet check" } }),
    )
    .await;
    assert_eq!(res.status(), 200);
    let res = app
        .post("/store/orders", json!({ "petId": id, "quantity": 1 }))
        .await;
    assert_eq!(res.status(), 201);

    let other = animal_pet(&app, "Kea", json!({ "sex": "male" }), 1).await;
    patch(&app, other, json!({ "hold": hold })).await;
    let res = patch(&app, other, json!({ "hold": null })).await;
    assert!(body(res).await.get("hold").is_none());
    let res = app.post("/store/sales", sale(other, buyer())).await;
    assert_eq!(res.status(), 201);
}

#[tokio::test]
async fn a_bad_hold_is_refused_naming_its_field() {
    let app = TestApp::spawn().await;
    let id = animal_pet(&app, "Moss", json!({ "sex": "male" }), 0).await;
    for (hold, field) in [
        (json!({ "until": day(1) }), "hold.reason"),
        (json!({ "until": day(1), "reason": "" }), "hold.reason"),
        (
            json!({ "until": day(1), "reason": "r".repeat(201) }),
            "hold.reason",
        ),
        (json!({ "reason": "Vet" }), "hold.until"),
        (
            json!({ "until": "tomorrow", "reason": "Vet" }),
            "hold.until",
        ),
        (json!(true), "hold"),
    ] {
        let message = assert_error(
            patch(&app, id, json!({ "hold": hold })).await,
            422,
            "validation_failed",
        )
        .await;
        assert!(message.starts_with(field), "{hold}: {message}");
    }
    assert!(pet(&app, id).await.get("hold").is_none());
}

#[tokio::test]
async fn an_offline_sale_of_a_held_animal_is_recorded_without_a_buyer() {
    let app = TestApp::spawn().await;
    let id = animal_pet(&app, "Tiger", json!({ "sex": "male" }), 1).await;
    patch(
        &app,
        id,
        json!({ "hold": { "until": day(3), "reason": "Reserved" } }),
    )
    .await;
    let sold_at = (chrono::Utc::now() - chrono::Duration::hours(2))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let mut offline = sale(id, json!({}));
    offline["soldAt"] = json!(sold_at);
    let res = app.post("/store/sales", offline).await;
    assert_eq!(res.status(), 201);
    assert_eq!(app.stock(id).await, 0);
}

#[tokio::test]
async fn selling_an_animal_needs_the_buyers_name_and_a_phone_or_an_email() {
    let app = TestApp::spawn().await;
    let category = app.category("Food").await;
    let food = app
        .pet("Kibble", category)
        .no_status()
        .with("price", 500)
        .stock(10)
        .create()
        .await;
    let id = animal_pet(&app, "Luna", json!({ "sex": "female" }), 1).await;

    for customer in [
        None,
        Some(json!({ "name": "Ann Lee" })),
        Some(json!({ "name": "Ann Lee", "phone": " " })),
        Some(json!({ "phone": "555 0100", "email": "ann@example.com" })),
    ] {
        let mut basket = json!({
            "lines": [{ "petId": food, "quantity": 1 }, { "petId": id, "quantity": 1 }],
            "payments": [{ "method": "cash", "amount": 60_000 }] });
        if let Some(customer) = &customer {
            basket["customer"] = customer.clone();
        }
        let res = app.post("/store/sales", basket).await;
        assert_eq!(res.status(), 422, "{customer:?}");
        let error = body(res).await;
        assert_eq!(
            (&error["code"], &error["line"], &error["status"]),
            (&json!("buyer_required"), &json!(1), &json!(422)),
            "{error}"
        );
    }
    assert_eq!(app.stock(food).await, 10);
    // Food alone needs no buyer; the animal sells with a name and an email.
    let res = app
        .post(
            "/store/sales",
            json!({ "lines": [{ "petId": food, "quantity": 1 }],
                    "payments": [{ "method": "cash", "amount": 500 }] }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let res = app
        .post(
            "/store/sales",
            sale(id, json!({ "name": "Ann Lee", "email": "ann@example.com" })),
        )
        .await;
    assert_eq!(res.status(), 201);
}
