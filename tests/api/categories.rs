//! `/categories`: the kinds of animal, unique by name regardless of case.

use reqwest::Method;
use serde_json::json;

use crate::support::{assert_error, body, header, ids_of, TestApp};

#[tokio::test]
async fn creating_a_category_answers_201_with_location_etag_and_trimmed_fields() {
    let app = TestApp::spawn().await;
    let res = app
        .post(
            "/categories",
            json!({ "name": " Reptiles ", "description": "  Cold-blooded friends " }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let location = header(&res, "location");
    assert!(header(&res, "etag").starts_with('"'));
    let category = body(res).await;
    let id = category["id"].as_i64().unwrap();
    assert_eq!(location, format!("/categories/{id}"));
    assert_eq!(
        category,
        json!({ "id": id, "name": "Reptiles", "description": "Cold-blooded friends" })
    );
    let res = app.get(&location).await;
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("etag"));
    assert_eq!(body(res).await, category);
}

#[tokio::test]
async fn a_category_without_or_with_a_blank_description_omits_it() {
    let app = TestApp::spawn().await;
    let res = app
        .post(
            "/categories",
            json!({ "name": "Fish", "description": "   " }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let category = body(res).await;
    assert_eq!(category, json!({ "id": category["id"], "name": "Fish" }));
}

#[tokio::test]
async fn put_replaces_the_category_and_a_missing_description_clears_it() {
    let app = TestApp::spawn().await;
    let res = app
        .post(
            "/categories",
            json!({ "name": "Dogs", "description": "Woof" }),
        )
        .await;
    let id = body(res).await["id"].as_i64().unwrap();
    let res = app
        .send_json(
            Method::PUT,
            &format!("/categories/{id}"),
            json!({ "name": "Hounds" }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("etag"));
    assert_eq!(body(res).await, json!({ "id": id, "name": "Hounds" }));
    assert_eq!(
        app.get_json(&format!("/categories/{id}")).await,
        json!({ "id": id, "name": "Hounds" })
    );
}

#[tokio::test]
async fn patch_changes_the_fields_sent_and_a_null_description_clears_it() {
    let app = TestApp::spawn().await;
    let id = app.category("Dogs").await;
    let path = format!("/categories/{id}");
    let res = app
        .send_json(Method::PATCH, &path, json!({ "description": "Loyal" }))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        body(res).await,
        json!({ "id": id, "name": "Dogs", "description": "Loyal" })
    );
    let res = app
        .send_json(Method::PATCH, &path, json!({ "name": "Canines" }))
        .await;
    assert_eq!(
        body(res).await,
        json!({ "id": id, "name": "Canines", "description": "Loyal" })
    );
    let res = app
        .send_json(Method::PATCH, &path, json!({ "description": null }))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, json!({ "id": id, "name": "Canines" }));
}

#[tokio::test]
async fn a_category_may_be_renamed_to_its_own_name_in_another_case() {
    let app = TestApp::spawn().await;
    let id = app.category("Dogs").await;
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/categories/{id}"),
            json!({ "name": "DOGS" }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await["name"], "DOGS");
}

#[tokio::test]
async fn names_are_unique_regardless_of_case_on_create_put_and_patch() {
    let app = TestApp::spawn().await;
    app.category("Ärzte").await;
    let other = app.category("Birds").await;
    let res = app.post("/categories", json!({ "name": "äRZTE" })).await;
    assert_error(res, 409, "duplicate_name").await;
    let res = app.post("/categories", json!({ "name": "  ärzte " })).await;
    assert_error(res, 409, "duplicate_name").await;
    let res = app
        .send_json(
            Method::PUT,
            &format!("/categories/{other}"),
            json!({ "name": "ÄRZTE" }),
        )
        .await;
    assert_error(res, 409, "duplicate_name").await;
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/categories/{other}"),
            json!({ "name": "ärzte" }),
        )
        .await;
    assert_error(res, 409, "duplicate_name").await;
    assert_eq!(
        app.get_json("/categories").await.as_array().unwrap().len(),
        2
    );
    assert_eq!(
        app.get_json(&format!("/categories/{other}")).await["name"],
        "Birds"
    );
}

#[tokio::test]
async fn a_category_in_use_cannot_be_deleted_until_its_pets_move() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let cats = app.category("Cats").await;
    let pet = app.pet_with_stock("Rex", dogs, 0).await;
    assert_error(
        app.delete(&format!("/categories/{dogs}")).await,
        409,
        "category_in_use",
    )
    .await;
    assert_eq!(
        app.get_json(&format!("/categories/{dogs}")).await["name"],
        "Dogs"
    );

    let res = app
        .send_json(
            Method::PATCH,
            &format!("/pets/{pet}"),
            json!({ "categoryId": cats }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = app.delete(&format!("/categories/{dogs}")).await;
    assert_eq!(res.status(), 204);
    assert_eq!(res.text().await.unwrap(), "");
    assert_error(
        app.get(&format!("/categories/{dogs}")).await,
        404,
        "not_found",
    )
    .await;
}

#[tokio::test]
async fn the_category_list_is_sorted_by_id_and_searches_names_case_insensitively() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let hot = app.category("Hot dogs").await;
    let cats = app.category("Cats").await;
    let res = app.get("/categories").await;
    assert_eq!(res.headers()["x-total-count"], "3");
    let all = body(res).await;
    let ids = ids_of(&all);
    assert_eq!(ids, vec![dogs, hot, cats]);
    let res = app.get("/categories?q=DOG").await;
    assert_eq!(res.headers()["x-total-count"], "2");
    assert_eq!(
        body(res).await,
        json!([{ "id": dogs, "name": "Dogs" }, { "id": hot, "name": "Hot dogs" }])
    );
}

#[tokio::test]
async fn a_missing_category_answers_not_found_for_every_method() {
    let app = TestApp::spawn().await;
    assert_error(app.get("/categories/424242").await, 404, "not_found").await;
    let res = app
        .send_json(Method::PUT, "/categories/424242", json!({ "name": "X" }))
        .await;
    assert_error(res, 404, "not_found").await;
    let res = app
        .send_json(Method::PATCH, "/categories/424242", json!({ "name": "X" }))
        .await;
    assert_error(res, 404, "not_found").await;
    assert_error(app.delete("/categories/424242").await, 404, "not_found").await;
}
