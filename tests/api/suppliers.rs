//! `/store/suppliers`, and a pet's `supplierId`, `cost` and `reorderQuantity`.

use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, body, header, TestApp};

/// Creates a supplier and returns its id.
pub async fn supplier(app: &TestApp, name: &str) -> i64 {
    let res = app.post("/store/suppliers", json!({ "name": name })).await;
    assert_eq!(res.status(), 201, "creating supplier {name}");
    body(res).await["id"].as_i64().unwrap()
}

#[tokio::test]
async fn a_new_supplier_answers_201_with_every_field_trimmed_and_reads_back_the_same() {
    let app = TestApp::spawn().await;
    let res = app
        .post(
            "/store/suppliers",
            json!({ "name": " Acme Aquatics ", "contact": " Jo ", "phone": "+1 555 0100",
                    "email": "orders@acme.example", "note": "  " }),
        )
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(header(&res, "x-stability"), "beta");
    let location = header(&res, "location");
    let supplier = body(res).await;
    let id = supplier["id"].as_i64().unwrap();
    assert_eq!(location, format!("/store/suppliers/{id}"));
    assert_eq!(
        supplier,
        json!({ "id": id, "name": "Acme Aquatics", "contact": "Jo", "phone": "+1 555 0100",
                "email": "orders@acme.example", "note": null })
    );
    let res = app.get(&location).await;
    assert_eq!(res.status(), 200);
    assert!(header(&res, "etag").starts_with('"'));
    assert_eq!(body(res).await, supplier);
    let list = app.get_json("/store/suppliers?q=acme").await;
    assert_eq!(list, json!([supplier]));
}

#[tokio::test]
async fn a_supplier_name_is_unique_ignoring_case_on_create_and_on_patch() {
    let app = TestApp::spawn().await;
    supplier(&app, "Acme").await;
    let other = supplier(&app, "Birdseed Ltd").await;
    let res = app
        .post("/store/suppliers", json!({ "name": "ACME" }))
        .await;
    assert_error(res, 409, "duplicate_name").await;
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/store/suppliers/{other}"),
            json!({ "name": "acme" }),
        )
        .await;
    assert_error(res, 409, "duplicate_name").await;
}

#[tokio::test]
async fn a_supplier_without_a_name_or_with_a_bad_email_is_422_naming_the_field() {
    let app = TestApp::spawn().await;
    let res = app.post("/store/suppliers", json!({ "phone": "1" })).await;
    assert!(assert_error(res, 422, "validation_failed")
        .await
        .contains("name"));
    let res = app
        .post("/store/suppliers", json!({ "name": "A", "email": "nope" }))
        .await;
    assert!(assert_error(res, 422, "validation_failed")
        .await
        .contains("email"));
    let res = app
        .post("/store/suppliers", json!({ "name": "A", "colour": "red" }))
        .await;
    assert_error(res, 400, "bad_request").await;
    assert_eq!(app.get_json("/store/suppliers").await, json!([]));
}

#[tokio::test]
async fn patching_a_supplier_changes_the_fields_sent_and_null_clears_one() {
    let app = TestApp::spawn().await;
    let res = app
        .post(
            "/store/suppliers",
            json!({ "name": "Acme", "phone": "555", "contact": "Jo" }),
        )
        .await;
    let id = body(res).await["id"].as_i64().unwrap();
    let path = format!("/store/suppliers/{id}");
    let res = app
        .send_json(
            Method::PATCH,
            &path,
            json!({ "phone": null, "note": "Fridays" }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        body(res).await,
        json!({ "id": id, "name": "Acme", "contact": "Jo", "phone": null, "email": null,
                "note": "Fridays" })
    );
    let res = app
        .send_json(Method::PATCH, &path, json!({ "name": null }))
        .await;
    assert_error(res, 422, "validation_failed").await;
}

#[tokio::test]
async fn a_supplier_named_by_a_pet_cannot_be_deleted_until_the_pet_lets_go() {
    let app = TestApp::spawn().await;
    let acme = supplier(&app, "Acme").await;
    let cat = app.category("Fish").await;
    let pet = app
        .pet("Guppy", cat)
        .no_status()
        .with("supplierId", acme)
        .create()
        .await;
    let path = format!("/store/suppliers/{acme}");
    assert_error(app.delete(&path).await, 409, "conflict").await;
    assert_eq!(app.get(&path).await.status(), 200);
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/pets/{pet}"),
            json!({ "supplierId": null }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(app.delete(&path).await.status(), 204);
    assert_error(app.get(&path).await, 404, "not_found").await;
    assert_error(app.delete(&path).await, 404, "not_found").await;
}

#[tokio::test]
async fn a_pet_carries_its_supplier_cost_and_reorder_quantity_and_null_clears_them() {
    let app = TestApp::spawn().await;
    let acme = supplier(&app, "Acme").await;
    let cat = app.category("Fish").await;
    let res = app
        .post(
            "/pets",
            json!({ "name": "Guppy", "categoryId": cat, "supplierId": acme, "cost": 120,
                    "reorderQuantity": 24 }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let pet: Value = body(res).await;
    assert_eq!(pet["supplierId"], acme);
    assert_eq!(pet["cost"], 120);
    assert_eq!(pet["reorderQuantity"], 24);
    let path = format!("/pets/{}", pet["id"]);
    let listed = app.get_json(&format!("/pets?ids={}", pet["id"])).await;
    assert_eq!(listed[0], pet);
    let res = app
        .send_json(
            Method::PATCH,
            &path,
            json!({ "cost": null, "reorderQuantity": null, "supplierId": null }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let patched = body(res).await;
    for field in ["supplierId", "cost", "reorderQuantity"] {
        assert!(patched.get(field).is_none(), "{field} in {patched}");
    }
}

#[tokio::test]
async fn a_pet_naming_no_supplier_or_with_bad_cost_or_reorder_quantity_is_422() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    for (extra, field) in [
        (json!({ "supplierId": 999 }), "supplierId"),
        (json!({ "supplierId": 0 }), "supplierId"),
        (json!({ "cost": -1 }), "cost"),
        (json!({ "cost": 1.5 }), "cost"),
        (json!({ "reorderQuantity": 0 }), "reorderQuantity"),
        (json!({ "reorderQuantity": 1_000_001 }), "reorderQuantity"),
    ] {
        let mut pet = json!({ "name": "Guppy", "categoryId": cat });
        pet.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let res = app.post("/pets", pet).await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.contains(field), "{field}: {message}");
    }
    assert_eq!(app.get_json("/pets").await, json!([]));
}
