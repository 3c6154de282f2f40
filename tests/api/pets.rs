//! `/pets`: creating, reading, replacing, patching, deleting and listing pets.

use reqwest::Method;
use serde_json::json;

use crate::support::{assert_error, assert_error_saying, body, header, ids_of, TestApp};

#[tokio::test]
async fn creating_a_pet_answers_201_with_location_etag_and_the_trimmed_pet() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let res = app
        .post(
            "/pets",
            json!({ "name": "  Rex  ", "categoryId": cat, "status": "available" }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let id_location = header(&res, "location");
    assert!(header(&res, "etag").starts_with('"'));
    assert!(header(&res, "content-type").starts_with("application/json"));
    let pet = body(res).await;
    let id = pet["id"].as_i64().unwrap();
    assert!(id > 0);
    assert_eq!(id_location, format!("/pets/{id}"));
    assert_eq!(
        pet,
        json!({ "id": id, "name": "Rex", "categoryId": cat, "status": "available" })
    );
}

#[tokio::test]
async fn a_pet_without_status_omits_the_field_and_gets_stock_zero_with_no_history() {
    let app = TestApp::spawn().await;
    let cat = app.category("Cats").await;
    let res = app
        .post("/pets", json!({ "name": "Tom", "categoryId": cat }))
        .await;
    assert_eq!(res.status(), 201);
    let pet = body(res).await;
    let id = pet["id"].as_i64().unwrap();
    assert_eq!(pet, json!({ "id": id, "name": "Tom", "categoryId": cat }));

    let item = app.get_json(&format!("/store/inventory/{id}")).await;
    assert_eq!(
        item,
        json!({ "petId": id, "quantity": 0, "status": "available" })
    );
    let res = app.get(&format!("/store/inventory/{id}/adjustments")).await;
    assert_eq!(res.headers()["x-total-count"], "0");
    assert_eq!(body(res).await, json!([]));
}

#[tokio::test]
async fn a_created_pet_is_found_by_id_in_the_list_and_by_the_single_read() {
    let app = TestApp::spawn().await;
    let cat = app.category("Birds").await;
    let id = app.pet_with_stock("Tweety", cat, 0).await;
    let expected = json!({ "id": id, "name": "Tweety", "categoryId": cat, "status": "available" });
    assert_eq!(
        app.get_json(&format!("/pets?ids={id}")).await,
        json!([expected.clone()])
    );
    assert_eq!(app.get_json(&format!("/pets/{id}")).await, expected);
}

#[tokio::test]
async fn put_replaces_the_whole_pet_and_a_missing_status_clears_it() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let cats = app.category("Cats").await;
    let id = app.pet_with_stock("Rex", dogs, 0).await;
    let res = app
        .send_json(
            Method::PUT,
            &format!("/pets/{id}"),
            json!({ "name": " Felix ", "categoryId": cats }),
        )
        .await;
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("etag"));
    let expected = json!({ "id": id, "name": "Felix", "categoryId": cats });
    assert_eq!(body(res).await, expected);
    assert_eq!(
        app.get_json(&format!("/pets?ids={id}")).await,
        json!([expected])
    );
}

#[tokio::test]
async fn put_without_a_required_field_is_refused_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let id = app.pet_with_stock("Rex", dogs, 0).await;
    let res = app
        .send_json(
            Method::PUT,
            &format!("/pets/{id}"),
            json!({ "name": "Max" }),
        )
        .await;
    assert_error_saying(res, 422, "validation_failed", "categoryId").await;
    assert_eq!(app.get_json(&format!("/pets/{id}")).await["name"], "Rex");
}

#[tokio::test]
async fn patch_changes_only_the_fields_sent_and_a_null_status_clears_it() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let id = app.pet_with_stock("Rex", dogs, 0).await;
    let path = format!("/pets/{id}");

    let res = app
        .send_json(Method::PATCH, &path, json!({ "name": "Max" }))
        .await;
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("etag"));
    assert_eq!(
        body(res).await,
        json!({ "id": id, "name": "Max", "categoryId": dogs, "status": "available" })
    );

    let res = app
        .send_json(Method::PATCH, &path, json!({ "status": "sold" }))
        .await;
    assert_eq!(body(res).await["status"], "sold");

    let res = app
        .send_json(Method::PATCH, &path, json!({ "status": null }))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        body(res).await,
        json!({ "id": id, "name": "Max", "categoryId": dogs })
    );

    let res = app.send_json(Method::PATCH, &path, json!({})).await;
    assert_eq!(
        body(res).await,
        json!({ "id": id, "name": "Max", "categoryId": dogs })
    );
}

#[tokio::test]
async fn patch_accepts_the_merge_patch_media_type() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let id = app.pet_with_stock("Rex", dogs, 0).await;
    let res = app
        .send_raw(
            Method::PATCH,
            &format!("/pets/{id}"),
            Some("application/merge-patch+json"),
            r#"{"status":"pending"}"#,
        )
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await["status"], "pending");
}

#[tokio::test]
async fn patch_moving_a_pet_to_a_missing_category_is_unknown_category() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let id = app.pet_with_stock("Rex", dogs, 0).await;
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/pets/{id}"),
            json!({ "categoryId": 999_999 }),
        )
        .await;
    assert_error(res, 422, "unknown_category").await;
    assert_eq!(
        app.get_json(&format!("/pets/{id}")).await["categoryId"],
        dogs
    );
}

#[tokio::test]
async fn deleting_a_pet_answers_204_and_removes_it_and_its_stock() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let id = app.pet_with_stock("Rex", dogs, 3).await;
    let res = app.delete(&format!("/pets/{id}")).await;
    assert_eq!(res.status(), 204);
    assert_eq!(res.text().await.unwrap(), "");
    assert_error(app.get(&format!("/pets/{id}")).await, 404, "not_found").await;
    assert_error(
        app.get(&format!("/store/inventory/{id}")).await,
        404,
        "not_found",
    )
    .await;
    assert_eq!(app.get_json(&format!("/pets?ids={id}")).await, json!([]));
    assert_error(app.delete(&format!("/pets/{id}")).await, 404, "not_found").await;
}

#[tokio::test]
async fn a_pet_whose_orders_are_all_complete_can_be_deleted() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let id = app.pet_with_stock("Rex", dogs, 2).await;
    let order = app.order(id, 1).await;
    let res = app.complete(&order).await;
    assert_eq!(res.status(), 200);
    assert_eq!(app.delete(&format!("/pets/{id}")).await.status(), 204);
}

#[tokio::test]
async fn the_pet_list_filters_by_status_category_name_and_ids() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let cats = app.category("Cats").await;
    let rex = app.pet_with_stock("Rex", dogs, 0).await;
    let max = app.pet_with_stock("Maximilian", dogs, 0).await;
    let tom = app.pet_with_stock("Tom", cats, 0).await;
    app.set_status(max, "sold").await;
    let none = app.pet("Nobody", cats).no_status().create().await;

    let ids = |v: serde_json::Value| ids_of(&v);
    assert_eq!(ids(app.get_json("/pets").await), vec![rex, max, tom, none]);
    assert_eq!(
        ids(app.get_json("/pets?status=available").await),
        vec![rex, tom]
    );
    assert_eq!(
        ids(app.get_json("/pets?status=sold,available").await),
        vec![rex, max, tom]
    );
    assert_eq!(
        ids(app.get_json("/pets?status=pending").await),
        Vec::<i64>::new()
    );
    assert_eq!(
        ids(app.get_json(&format!("/pets?categoryId={cats}")).await),
        vec![tom, none]
    );
    assert_eq!(ids(app.get_json("/pets?q=MAX").await), vec![max]);
    assert_eq!(ids(app.get_json("/pets?q=o").await), vec![tom, none]);
    assert_eq!(
        ids(app.get_json(&format!("/pets?ids={tom},{rex}")).await),
        vec![rex, tom]
    );
    let res = app
        .get(&format!("/pets?categoryId={dogs}&status=available"))
        .await;
    assert_eq!(res.headers()["x-total-count"], "1");
    assert_eq!(ids(body(res).await), vec![rex]);
}

#[tokio::test]
async fn a_search_with_like_wildcards_matches_them_literally() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let plain = app.pet_with_stock("Rex", dogs, 0).await;
    let percent = app.pet_with_stock("100% Good_Boy", dogs, 0).await;
    let found = app.get_json("/pets?q=%25").await;
    assert_eq!(found.as_array().unwrap().len(), 1, "{found}");
    assert_eq!(found[0]["id"], percent);
    let found = app.get_json("/pets?q=_").await;
    assert_eq!(found.as_array().unwrap().len(), 1, "{found}");
    assert_ne!(found[0]["id"], plain);
}

#[tokio::test]
async fn a_pet_created_after_the_newest_was_deleted_gets_a_new_id_and_no_history() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let old = app.pet_with_stock("Rex", dogs, 4).await;
    let order = app.order(old, 1).await;
    let res = app.complete(&order).await;
    assert_eq!(res.status(), 200);
    assert_eq!(app.delete(&format!("/pets/{old}")).await.status(), 204);

    let new = app.pet_with_stock("Max", dogs, 0).await;
    assert_ne!(new, old, "a deleted pet's id is not reused");
    let res = app
        .get(&format!("/store/inventory/{new}/adjustments"))
        .await;
    assert_eq!(res.headers()["x-total-count"], "0");
    assert_eq!(
        app.get_json(&format!("/store/orders?petId={new}")).await,
        json!([])
    );
}

#[tokio::test]
async fn search_matches_every_word_in_any_order_in_the_name_or_at_the_start_of_a_category_word() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let fish = app.category("Tropical fish").await;
    let biscuit = app.pet_with_stock("Biscuit (Beagle puppy)", dogs, 1).await;
    let rex = app.pet_with_stock("Rex (Boxer puppy)", dogs, 1).await;
    let neon = app.pet_with_stock("Neon tetra", fish, 40).await;
    let names = ids_of;

    let found = app.get_json("/pets?q=puppy%20beagle&sort=id").await;
    assert_eq!(names(&found), vec![biscuit], "both words, in any order");
    let found = app.get_json("/pets?q=dog%20puppy&sort=id").await;
    assert_eq!(
        names(&found),
        vec![biscuit, rex],
        "a word of the category counts"
    );
    let found = app.get_json("/pets?q=FISH&sort=id").await;
    assert_eq!(
        names(&found),
        vec![neon],
        "the second word of a category, any case"
    );
    let res = app.get("/pets?q=o&sort=id").await;
    assert_eq!(
        header(&res, "x-total-count"),
        "2",
        "inside a category word is no match"
    );
    let found = app.get_json("/pets?q=beagle%20cat").await;
    assert_eq!(names(&found), Vec::<i64>::new(), "every word must match");

    let flakes = app
        .pet("Tetra flakes", fish)
        .no_status()
        .with("sku", "TF-100")
        .with("barcode", "4006381333931")
        .create()
        .await;
    let found = app.get_json("/pets?q=tf-100").await;
    assert_eq!(names(&found), vec![flakes], "the sku, any case");
    let found = app.get_json("/pets?q=333931%20fish").await;
    assert_eq!(
        names(&found),
        vec![flakes],
        "part of the barcode, with a category word"
    );
}
