//! Strong `ETag`s on single records, and `If-Match` on PUT, PATCH and DELETE.

use reqwest::{Method, Response};
use serde_json::{json, Value};

use crate::support::{assert_error, body, header, TestApp};

const STALE: &str = "\"000000000000000000000000\"";

async fn with_if_match(
    app: &TestApp,
    method: Method,
    path: &str,
    tag: &str,
    json: Option<Value>,
) -> Response {
    let mut req = app.request(method, path).header("If-Match", tag);
    if let Some(json) = json {
        req = req.json(&json);
    }
    req.send().await.unwrap()
}

async fn etag_of(app: &TestApp, path: &str) -> String {
    let res = app.get(path).await;
    assert_eq!(res.status(), 200, "GET {path}");
    header(&res, "etag")
}

/// A change to a record: its method and its JSON body, if any.
type Change = (Method, Option<Value>);

/// Sends each change to `path` with `tag` in `If-Match`; each is refused with 412
/// `precondition_failed`.
async fn each_refused(app: &TestApp, path: &str, tag: &str, changes: &[Change]) {
    for (method, json) in changes {
        let res = with_if_match(app, method.clone(), path, tag, json.clone()).await;
        assert_eq!(res.status(), 412, "{method} {path}, If-Match: {tag}");
        assert_error(res, 412, "precondition_failed").await;
    }
}

/// Sends each change to `path` in turn, the first with `tag` in `If-Match` and each next
/// with the `ETag` the one before was answered with; each is let through with its status.
/// The last answer's `ETag` (none after a 204).
async fn each_passes(app: &TestApp, path: &str, tag: &str, changes: &[(Change, u16)]) -> String {
    let mut tag = tag.to_owned();
    for ((method, json), status) in changes {
        let res = with_if_match(app, method.clone(), path, &tag, json.clone()).await;
        assert_eq!(res.status(), *status, "{method} {path}, If-Match: {tag}");
        tag = if *status == 204 {
            String::new()
        } else {
            header(&res, "etag")
        };
    }
    tag
}

#[tokio::test]
async fn every_single_record_answer_carries_a_strong_etag() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 3).await;
    let order = app.order(rex, 1).await;
    for path in [
        format!("/pets/{rex}"),
        format!("/categories/{cat}"),
        format!("/store/orders/{}", order["id"]),
        format!("/store/inventory/{rex}"),
    ] {
        let tag = etag_of(&app, &path).await;
        assert!(
            tag.starts_with('"') && tag.ends_with('"') && tag.len() > 2,
            "{path}: {tag}"
        );
        assert!(!tag.starts_with("W/"), "strong: {tag}");
        assert_eq!(
            etag_of(&app, &path).await,
            tag,
            "{path}: stable while unchanged"
        );
    }
    let res = app
        .post(
            &format!("/store/inventory/{rex}/adjustments"),
            json!({ "delta": 1 }),
        )
        .await;
    assert!(header(&res, "etag").starts_with('"'));
    assert_eq!(
        header(&res, "etag"),
        etag_of(&app, &format!("/store/inventory/{rex}")).await
    );
}

#[tokio::test]
async fn the_etag_changes_when_the_record_changes() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let path = format!("/categories/{cat}");
    let before = etag_of(&app, &path).await;
    let res = app
        .send_json(Method::PATCH, &path, json!({ "description": "Woof" }))
        .await;
    let answered = header(&res, "etag");
    assert_ne!(answered, before);
    assert_eq!(etag_of(&app, &path).await, answered);
}

#[tokio::test]
async fn a_stale_if_match_refuses_changes_to_pets() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 0).await;
    let path = format!("/pets/{rex}");
    let old = etag_of(&app, &path).await;
    let res = app
        .send_json(Method::PATCH, &path, json!({ "name": "Max" }))
        .await;
    assert_eq!(res.status(), 200);

    let changes = [
        (
            Method::PUT,
            Some(json!({ "name": "Bob", "categoryId": cat })),
        ),
        (Method::PATCH, Some(json!({ "name": "Bob" }))),
        (Method::DELETE, None),
    ];
    for tag in [old.as_str(), STALE] {
        each_refused(&app, &path, tag, &changes).await;
    }
    assert_eq!(app.get_json(&path).await["name"], "Max");
}

#[tokio::test]
async fn a_current_if_match_lets_pet_changes_through() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 0).await;
    let path = format!("/pets/{rex}");
    let tag = etag_of(&app, &path).await;
    let changes = [
        (
            (
                Method::PUT,
                Some(json!({ "name": "Bob", "categoryId": cat })),
            ),
            200,
        ),
        ((Method::PATCH, Some(json!({ "status": "sold" }))), 200),
    ];
    let tag = each_passes(&app, &path, &tag, &changes).await;
    // The current tag in a list of tags matches too.
    let list = format!("\"nope\", {tag}");
    each_passes(&app, &path, &list, &[((Method::DELETE, None), 204)]).await;
}

#[tokio::test]
async fn a_stale_if_match_refuses_changes_to_categories_and_a_current_one_passes() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let path = format!("/categories/{cat}");
    let tag = etag_of(&app, &path).await;
    let changes = [
        (Method::PUT, Some(json!({ "name": "Cats" }))),
        (Method::PATCH, Some(json!({ "name": "Cats" }))),
        (Method::DELETE, None),
    ];
    each_refused(&app, &path, STALE, &changes).await;
    assert_eq!(app.get_json(&path).await["name"], "Dogs");

    let changes = [
        ((Method::PUT, Some(json!({ "name": "Cats" }))), 200),
        ((Method::PATCH, Some(json!({ "description": "Meow" }))), 200),
        ((Method::DELETE, None), 204),
    ];
    each_passes(&app, &path, &tag, &changes).await;
}

#[tokio::test]
async fn a_stale_if_match_refuses_changes_to_orders_and_a_current_one_passes() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let first = app.order(rex, 1).await;
    let second = app.order(rex, 1).await;
    let path = format!("/store/orders/{}", first["id"]);

    let changes = [
        (Method::PATCH, Some(json!({ "complete": true }))),
        (Method::DELETE, None),
    ];
    each_refused(&app, &path, STALE, &changes).await;
    assert_eq!(app.get_json(&path).await["complete"], false);
    assert_eq!(app.stock(rex).await, 3);

    // Completing the order changes its tag: the same tag a second time is stale.
    let tag = etag_of(&app, &path).await;
    let complete = (Method::PATCH, Some(json!({ "complete": true })));
    each_passes(&app, &path, &tag, &[(complete.clone(), 200)]).await;
    each_refused(&app, &path, &tag, &[complete]).await;

    let path = format!("/store/orders/{}", second["id"]);
    let tag = etag_of(&app, &path).await;
    each_passes(&app, &path, &tag, &[((Method::DELETE, None), 204)]).await;
    assert_eq!(app.stock(rex).await, 4);
}

#[tokio::test]
async fn a_stale_if_match_refuses_setting_stock_and_a_current_one_passes() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let path = format!("/store/inventory/{rex}");
    let tag = etag_of(&app, &path).await;
    app.order(rex, 1).await;
    let set = (Method::PUT, Some(json!({ "quantity": 50 })));
    each_refused(&app, &path, &tag, std::slice::from_ref(&set)).await;
    assert_eq!(app.get_json(&path).await["quantity"], 4);

    let tag = etag_of(&app, &path).await;
    let res = with_if_match(&app, set.0, &path, &tag, set.1).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await["quantity"], 50);
}

#[tokio::test]
async fn if_match_star_matches_any_existing_record() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    for (path, change) in [
        (
            format!("/pets/{rex}"),
            (Method::PATCH, Some(json!({ "name": "Max" }))),
        ),
        (
            format!("/store/inventory/{rex}"),
            (Method::PUT, Some(json!({ "quantity": 9 }))),
        ),
        (
            format!("/categories/{cat}"),
            (Method::PATCH, Some(json!({ "name": "Hounds" }))),
        ),
    ] {
        each_passes(&app, &path, "*", &[(change, 200)]).await;
    }
    let res = with_if_match(&app, Method::DELETE, "/pets/99999", "*", None).await;
    assert_error(res, 404, "not_found").await;
}

#[tokio::test]
async fn a_weak_tag_never_matches_a_strong_comparison() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let path = format!("/categories/{cat}");
    let tag = etag_of(&app, &path).await;
    let res = with_if_match(
        &app,
        Method::PATCH,
        &path,
        &format!("W/{tag}"),
        Some(json!({ "name": "X" })),
    )
    .await;
    assert_error(res, 412, "precondition_failed").await;
}

#[tokio::test]
async fn a_get_naming_the_current_etag_is_answered_304_without_a_body_until_the_record_changes() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 3).await;
    let path = format!("/store/inventory/{rex}");
    let tag = etag_of(&app, &path).await;
    let conditional = |tag: String| {
        let path = path.clone();
        let app = &app;
        async move {
            app.request(Method::GET, &path)
                .header("If-None-Match", tag)
                .send()
                .await
                .unwrap()
        }
    };
    for asked in [
        tag.clone(),
        format!("W/{tag}"),
        format!("{STALE}, {tag}"),
        "*".into(),
    ] {
        let res = conditional(asked.clone()).await;
        assert_eq!(res.status(), 304, "If-None-Match: {asked}");
        assert_eq!(header(&res, "etag"), tag);
        assert!(res.headers().contains_key("x-ratelimit-remaining"));
        assert!(res.bytes().await.unwrap().is_empty());
    }
    let res = conditional(STALE.into()).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await["quantity"], 3);
    // A change makes the old tag stale: the new record comes back whole.
    let res = app
        .send_json(Method::PUT, &path, json!({ "quantity": 5 }))
        .await;
    assert_eq!(res.status(), 200);
    let res = conditional(tag.clone()).await;
    assert_eq!(res.status(), 200);
    assert_ne!(header(&res, "etag"), tag);
    assert_eq!(body(res).await["quantity"], 5);
    // Lists carry no ETag, so they are always answered whole.
    let res = app
        .request(Method::GET, "/pets")
        .header("If-None-Match", "*")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
}
