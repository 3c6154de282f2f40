//! Selling codes and prices on pets (`sku`, `barcode`, `price`), finding a pet by code, the
//! store profile, and the prices and times orders keep.

use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, body, TestApp};

async fn create(app: &TestApp, pet: Value) -> reqwest::Response {
    app.post("/pets", pet).await
}

async fn pet(app: &TestApp, cat: i64, extra: Value) -> Value {
    app.pet("Goldie", cat).fields(extra).created().await
}

#[tokio::test]
async fn barcodes_of_every_gtin_length_with_a_right_check_digit_are_kept() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    for code in [
        "96385074",
        "036000291452",
        "4006381333931",
        "10012345678902",
    ] {
        let created = pet(&app, cat, json!({ "barcode": code })).await;
        assert_eq!(created["barcode"], code);
        let found = app.get_json(&format!("/pets?barcode={code}")).await;
        assert_eq!(found, json!([created]));
    }
}

#[tokio::test]
async fn a_wrong_check_digit_of_each_length_is_422_naming_the_barcode() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    for code in [
        "96385075",
        "036000291453",
        "4006381333932",
        "10012345678903",
    ] {
        let res = create(
            &app,
            json!({ "name": "Goldie", "categoryId": cat, "barcode": code }),
        )
        .await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.starts_with("barcode"), "{message}");
        assert!(message.contains("check digit"), "{message}");
    }
    for code in [
        "1234567",
        "123456789",
        "40063813339311",
        "abcdefgh",
        "4006381 33393",
    ] {
        let res = create(
            &app,
            json!({ "name": "Goldie", "categoryId": cat, "barcode": code }),
        )
        .await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.starts_with("barcode"), "{code}: {message}");
    }
    let res = create(
        &app,
        json!({ "name": "Goldie", "categoryId": cat, "barcode": 4006381333931_i64 }),
    )
    .await;
    assert_error(res, 422, "validation_failed").await;
    assert_eq!(app.get_json("/pets").await, json!([]));
}

#[tokio::test]
async fn skus_are_limited_to_letters_digits_dot_underscore_and_dash() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let created = pet(&app, cat, json!({ "sku": "FISH-gold_01.a" })).await;
    assert_eq!(created["sku"], "FISH-gold_01.a");
    for sku in [
        json!(""),
        json!("has space"),
        json!("a/b"),
        json!("x".repeat(65)),
        json!(12),
    ] {
        let res = create(
            &app,
            json!({ "name": "Goldie", "categoryId": cat, "sku": sku }),
        )
        .await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.starts_with("sku"), "{message}");
    }
}

#[tokio::test]
async fn a_taken_sku_in_any_case_or_a_taken_barcode_is_409_duplicate_code() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let first = pet(
        &app,
        cat,
        json!({ "sku": "FISH-01", "barcode": "4006381333931" }),
    )
    .await;
    let res = create(
        &app,
        json!({ "name": "Other", "categoryId": cat, "sku": "fish-01" }),
    )
    .await;
    assert_error(res, 409, "duplicate_code").await;
    let res = create(
        &app,
        json!({ "name": "Other", "categoryId": cat, "barcode": "4006381333931" }),
    )
    .await;
    let message = assert_error(res, 409, "duplicate_code").await;
    assert!(
        message.contains(&format!("pet {}", first["id"])),
        "{message}"
    );

    // Changing another pet onto a taken code is refused the same way, by PUT and PATCH.
    let second = pet(&app, cat, json!({ "sku": "FISH-02" })).await;
    let path = format!("/pets/{}", second["id"]);
    let res = app
        .send_json(Method::PATCH, &path, json!({ "sku": "Fish-01" }))
        .await;
    assert_error(res, 409, "duplicate_code").await;
    let res = app
        .send_json(
            Method::PUT,
            &path,
            json!({ "name": "Other", "categoryId": cat, "barcode": "4006381333931" }),
        )
        .await;
    assert_error(res, 409, "duplicate_code").await;
    // A pet keeps its own codes when it is saved again.
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/pets/{}", first["id"]),
            json!({ "sku": "FISH-01", "name": "Goldie 2" }),
        )
        .await;
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn codes_and_prices_are_kept_shown_and_cleared_with_null() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let created = pet(
        &app,
        cat,
        json!({ "sku": "F1", "barcode": "96385074", "price": 450 }),
    )
    .await;
    let path = format!("/pets/{}", created["id"]);
    assert_eq!(created["price"], 450);
    assert_eq!(
        app.get_json(&format!("/pets?ids={}", created["id"])).await,
        json!([created])
    );

    let res = app
        .send_json(Method::PATCH, &path, json!({ "price": 500 }))
        .await;
    let changed = body(res).await;
    assert_eq!(
        (changed["price"].clone(), changed["sku"].clone()),
        (json!(500), json!("F1"))
    );

    let res = app
        .send_json(
            Method::PATCH,
            &path,
            json!({ "sku": null, "barcode": null, "price": null }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let cleared = body(res).await;
    for field in ["sku", "barcode", "price"] {
        assert!(cleared.get(field).is_none(), "{field} in {cleared}");
    }
    // PUT replaces the whole pet: codes left out are none.
    app.send_json(Method::PATCH, &path, json!({ "sku": "F1" }))
        .await;
    let res = app
        .send_json(
            Method::PUT,
            &path,
            json!({ "name": "Goldie", "categoryId": cat }),
        )
        .await;
    assert!(body(res).await.get("sku").is_none());
}

#[tokio::test]
async fn prices_run_from_zero_to_a_hundred_million_whole_minor_units() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    assert_eq!(pet(&app, cat, json!({ "price": 0 })).await["price"], 0);
    assert_eq!(
        pet(&app, cat, json!({ "price": 100_000_000 })).await["price"],
        100_000_000
    );
    for price in [json!(-1), json!(100_000_001), json!(4.5), json!("450")] {
        let res = create(
            &app,
            json!({ "name": "Goldie", "categoryId": cat, "price": price }),
        )
        .await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.starts_with("price"), "{message}");
    }
}

#[tokio::test]
async fn a_till_finds_its_pet_by_sku_or_barcode_in_one_call() {
    let app = TestApp::spawn().await;
    let fish = app.category("Fish").await;
    let dogs = app.category("Dogs").await;
    let goldie = pet(
        &app,
        fish,
        json!({ "sku": "FISH-01", "barcode": "4006381333931" }),
    )
    .await;
    pet(&app, fish, json!({ "sku": "FISH-011" })).await;
    assert_eq!(app.get_json("/pets?sku=fish-01").await, json!([goldie]));
    assert_eq!(app.get_json("/pets?sku=FISH-0").await, json!([]));
    assert_eq!(
        app.get_json("/pets?barcode=4006381333931").await,
        json!([goldie])
    );
    assert_eq!(app.get_json("/pets?barcode=400638133393").await, json!([]));
    // The code combines with the other filters.
    assert_eq!(
        app.get_json(&format!("/pets?barcode=4006381333931&categoryId={dogs}"))
            .await,
        json!([])
    );
    assert_eq!(
        app.get_json(&format!(
            "/pets?sku=FISH-01&categoryId={fish}&status=available"
        ))
        .await,
        json!([goldie])
    );
}

#[tokio::test]
async fn an_order_keeps_the_price_of_the_moment_it_was_placed() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let goldie = pet(&app, cat, json!({ "price": 450 })).await;
    let id = goldie["id"].as_i64().unwrap();
    app.send_json(
        Method::PUT,
        &format!("/store/inventory/{id}"),
        json!({ "quantity": 10 }),
    )
    .await;
    let order = app.order(id, 3).await;
    assert_eq!(
        (order["unitPrice"].clone(), order["total"].clone()),
        (json!(450), json!(1350))
    );

    app.send_json(
        Method::PATCH,
        &format!("/pets/{id}"),
        json!({ "price": 999 }),
    )
    .await;
    let again = app
        .get_json(&format!("/store/orders/{}", order["id"]))
        .await;
    assert_eq!(
        (again["unitPrice"].clone(), again["total"].clone()),
        (json!(450), json!(1350))
    );
    let second = app.order(id, 1).await;
    assert_eq!(
        (second["unitPrice"].clone(), second["total"].clone()),
        (json!(999), json!(999))
    );

    // Without a price, both are left out.
    app.send_json(
        Method::PATCH,
        &format!("/pets/{id}"),
        json!({ "price": null }),
    )
    .await;
    let third = app.order(id, 1).await;
    assert!(
        third.get("unitPrice").is_none() && third.get("total").is_none(),
        "{third}"
    );
}

#[tokio::test]
async fn an_order_shows_when_it_was_placed_and_completed() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let id = app.pet_with_stock("Goldie", cat, 5).await;
    let before = chrono::Utc::now().timestamp() - 1;
    let order = app.order(id, 1).await;
    let placed = chrono::DateTime::parse_from_rfc3339(order["placedAt"].as_str().unwrap()).unwrap();
    assert!(placed.timestamp() >= before && placed.timestamp() <= chrono::Utc::now().timestamp());
    assert!(order.get("completedAt").is_none());
    let res = app.complete(&order).await;
    let done = body(res).await;
    assert_eq!(done["placedAt"], order["placedAt"]);
    let completed =
        chrono::DateTime::parse_from_rfc3339(done["completedAt"].as_str().unwrap()).unwrap();
    assert!(completed >= placed);
    // placedAt is read-only.
    let res = app
        .post(
            "/store/orders",
            json!({ "petId": id, "quantity": 1, "placedAt": "2020-01-01T00:00:00Z" }),
        )
        .await;
    assert_error(res, 400, "bad_request").await;
}

#[tokio::test]
async fn the_store_profile_has_defaults_and_only_an_admin_changes_it() {
    let app = TestApp::spawn().await;
    let profile = app.get_json("/store/profile").await;
    assert_eq!(profile["name"], "Pet Store");
    assert_eq!(profile["currency"], "USD");
    assert!(profile["timezone"].as_str().is_some_and(|t| !t.is_empty()));

    let res = app
        .send_json(
            Method::PATCH,
            "/store/profile",
            json!({ "name": "Fins & Paws", "currency": "eur", "timezone": "Europe/Paris" }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-stability"], "beta");
    let changed = body(res).await;
    assert_eq!(
        changed,
        json!({ "name": "Fins & Paws", "currency": "EUR", "timezone": "Europe/Paris",
                "taxIncluded": true, "defaultTaxRate": 0 })
    );
    assert_eq!(app.get_json("/store/profile").await, changed);

    for (field, value) in [
        ("currency", json!("XYZ")),
        ("timezone", json!("Mars/Olympus")),
        ("name", json!("")),
        ("name", json!(null)),
    ] {
        let res = app
            .send_json(Method::PATCH, "/store/profile", json!({ field: value }))
            .await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.starts_with(field), "{message}");
    }
    let staff = app.key("staff", "business").await;
    let res = app
        .request_as(&staff, Method::PATCH, "/store/profile")
        .json(&json!({ "name": "Mine" }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    let res = app.send_as(&staff, Method::GET, "/store/profile").await;
    assert_eq!(res.status(), 200);
}
