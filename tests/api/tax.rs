//! Tax settings (interface 1.2): the store profile's `taxIncluded` and `defaultTaxRate`, and
//! a pet's own `taxRate`.

use reqwest::Method;
use serde_json::json;

use crate::support::{assert_error, body, TestApp};

#[tokio::test]
async fn a_new_store_s_prices_include_tax_at_a_default_rate_of_zero() {
    let app = TestApp::spawn().await;
    let profile = app.get_json("/store/profile").await;
    assert_eq!(profile["taxIncluded"], true);
    assert_eq!(profile["defaultTaxRate"], 0);
}

#[tokio::test]
async fn an_admin_sets_the_tax_settings_and_they_are_kept_across_a_restart() {
    let app = TestApp::spawn().await;
    let changed = app
        .set_profile(json!({ "taxIncluded": false, "defaultTaxRate": 2000 }))
        .await;
    assert_eq!(changed["taxIncluded"], false);
    assert_eq!(changed["defaultTaxRate"], 2000);
    assert_eq!(changed["name"], "Pet Store", "the other fields stay");

    // Changing another field leaves the tax settings as they are.
    let res = app
        .send_json(Method::PATCH, "/store/profile", json!({ "name": "Fins" }))
        .await;
    assert_eq!(body(res).await["defaultTaxRate"], 2000);

    let app = app.restart().await;
    let profile = app.get_json("/store/profile").await;
    assert_eq!(profile["taxIncluded"], false);
    assert_eq!(profile["defaultTaxRate"], 2000);
    assert_eq!(profile["name"], "Fins");
}

#[tokio::test]
async fn tax_settings_out_of_bounds_or_of_the_wrong_type_are_refused_naming_the_field() {
    let app = TestApp::spawn().await;
    for (field, value) in [
        ("defaultTaxRate", json!(10_001)),
        ("defaultTaxRate", json!(-1)),
        ("defaultTaxRate", json!(12.5)),
        ("defaultTaxRate", json!("2000")),
        ("defaultTaxRate", json!(null)),
        ("taxIncluded", json!("no")),
        ("taxIncluded", json!(null)),
    ] {
        let res = app
            .send_json(Method::PATCH, "/store/profile", json!({ field: value }))
            .await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.starts_with(field), "{field}={value}: {message}");
    }
    let profile = app.get_json("/store/profile").await;
    assert_eq!(
        (&profile["taxIncluded"], &profile["defaultTaxRate"]),
        (&json!(true), &json!(0)),
        "nothing was changed"
    );
    let edges = json!({ "defaultTaxRate": 10_000 });
    let res = app.send_json(Method::PATCH, "/store/profile", edges).await;
    assert_eq!(body(res).await["defaultTaxRate"], 10_000);
}

#[tokio::test]
async fn only_an_admin_changes_the_tax_settings() {
    let app = TestApp::spawn().await;
    for role in ["staff", "pos", "readonly"] {
        let key = app.key(role, "business").await;
        let res = app
            .request_as(&key, Method::PATCH, "/store/profile")
            .json(&json!({ "defaultTaxRate": 500 }))
            .send()
            .await
            .unwrap();
        assert_error(res, 403, "forbidden").await;
    }
    assert_eq!(app.get_json("/store/profile").await["defaultTaxRate"], 0);
}

#[tokio::test]
async fn a_pet_s_own_tax_rate_is_set_by_post_put_and_patch_and_cleared_by_null() {
    let app = TestApp::spawn().await;
    let category = app.category("Food").await;
    let res = app
        .post(
            "/pets",
            json!({ "name": "Kibble", "categoryId": category, "price": 1200, "taxRate": 550 }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let pet = body(res).await;
    assert_eq!(pet["taxRate"], 550);
    let id = pet["id"].as_i64().unwrap();
    let path = format!("/pets/{id}");
    assert_eq!(
        app.get_json(&format!("/pets?ids={id}")).await[0]["taxRate"],
        550
    );

    let res = app
        .send_json(Method::PATCH, &path, json!({ "taxRate": 2000 }))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await["taxRate"], 2000);

    let res = app
        .send_json(Method::PATCH, &path, json!({ "name": "Kibble XL" }))
        .await;
    assert_eq!(
        body(res).await["taxRate"],
        2000,
        "a patch without it keeps it"
    );

    let res = app
        .send_json(Method::PATCH, &path, json!({ "taxRate": null }))
        .await;
    let cleared = body(res).await;
    assert!(cleared.get("taxRate").is_none(), "cleared: {cleared}");

    let res = app
        .send_json(
            Method::PUT,
            &path,
            json!({ "name": "Kibble", "categoryId": category, "taxRate": 0 }),
        )
        .await;
    assert_eq!(
        body(res).await["taxRate"],
        0,
        "a rate of 0 is kept, not dropped"
    );

    let res = app
        .send_json(
            Method::PUT,
            &path,
            json!({ "name": "Kibble", "categoryId": category }),
        )
        .await;
    let replaced = body(res).await;
    assert!(
        replaced.get("taxRate").is_none(),
        "PUT replaces: {replaced}"
    );
}

#[tokio::test]
async fn a_pet_s_tax_rate_out_of_bounds_is_refused_and_nothing_is_made() {
    let app = TestApp::spawn().await;
    let category = app.category("Food").await;
    for value in [json!(10_001), json!(-1), json!(7.5), json!("550")] {
        let res = app
            .post(
                "/pets",
                json!({ "name": "Kibble", "categoryId": category, "taxRate": value }),
            )
            .await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.starts_with("taxRate"), "{value}: {message}");
    }
    assert_eq!(app.get_json("/pets").await, json!([]));

    let id = app.pet_with_stock("Tank", category, 0).await;
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/pets/{id}"),
            json!({ "taxRate": 10_001 }),
        )
        .await;
    assert_error(res, 422, "validation_failed").await;
    let pet = app.get_json(&format!("/pets?ids={id}")).await;
    assert!(pet[0].get("taxRate").is_none(), "unchanged: {pet}");
}
