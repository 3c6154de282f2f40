//! The deprecated `GET /pets/{petId}`: `Deprecation`, `Sunset` and a successor `Link` on
//! every answer, and 410 `gone` once the sunset has passed.

use chrono::{TimeZone, Utc};
use reqwest::Response;
use serde_json::json;

use crate::support::{assert_error, assert_error_saying, body, header, TestApp};

fn assert_deprecation_headers(res: &Response, id: &str, sunset: &str) {
    let deprecation = header(res, "deprecation");
    assert!(
        deprecation.len() > 1
            && deprecation.starts_with('@')
            && deprecation[1..].bytes().all(|b| b.is_ascii_digit()),
        "Deprecation {deprecation}"
    );
    assert_eq!(header(res, "sunset"), sunset);
    assert_eq!(
        header(res, "link"),
        format!("</pets?ids={id}>; rel=\"successor-version\"")
    );
}

#[tokio::test]
async fn the_single_pet_read_answers_with_deprecation_sunset_and_successor_link() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 0).await;
    let res = app.get(&format!("/pets/{rex}")).await;
    assert_eq!(res.status(), 200);
    assert_deprecation_headers(&res, &rex.to_string(), "Wed, 30 Jun 2027 00:00:00 GMT");
    assert!(res.headers().contains_key("etag"));
    assert_eq!(
        body(res).await,
        json!({ "id": rex, "name": "Rex", "categoryId": cat, "status": "available" })
    );
}

#[tokio::test]
async fn the_deprecation_headers_come_with_a_404_too() {
    let app = TestApp::spawn().await;
    let res = app.get("/pets/4242").await;
    assert_deprecation_headers(&res, "4242", "Wed, 30 Jun 2027 00:00:00 GMT");
    assert_error(res, 404, "not_found").await;
}

/// A server whose single pet read sets at `sunset`, with one pet, Rex, and Rex's id.
async fn rex_with_sunset(sunset: chrono::DateTime<Utc>) -> (TestApp, i64) {
    let app = TestApp::builder()
        .args(|a| a.sunset = Some(sunset))
        .spawn()
        .await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 0).await;
    (app, rex)
}

#[tokio::test]
async fn the_sunset_header_follows_the_setting() {
    let (app, rex) = rex_with_sunset(Utc.with_ymd_and_hms(2099, 1, 2, 3, 4, 5).unwrap()).await;
    let res = app.get(&format!("/pets/{rex}")).await;
    assert_eq!(res.status(), 200);
    assert_deprecation_headers(&res, &rex.to_string(), "Fri, 02 Jan 2099 03:04:05 GMT");
}

#[tokio::test]
async fn after_the_sunset_the_single_pet_read_is_gone_with_the_same_headers() {
    let (app, rex) = rex_with_sunset(Utc.with_ymd_and_hms(2020, 3, 4, 5, 6, 7).unwrap()).await;
    for id in [rex.to_string(), "4242".to_owned()] {
        let res = app.get(&format!("/pets/{id}")).await;
        assert_deprecation_headers(&res, &id, "Wed, 04 Mar 2020 05:06:07 GMT");
        assert_error_saying(res, 410, "gone", &format!("/pets?ids={id}")).await;
    }
    let res = app.get(&format!("/pets?ids={rex}")).await;
    assert_eq!(res.status(), 200, "the successor still works");
    assert_eq!(body(res).await[0]["id"], rex);
}

#[tokio::test]
async fn other_operations_carry_no_deprecation_headers() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 0).await;
    let res = app.get(&format!("/pets?ids={rex}")).await;
    assert!(res.headers().get("deprecation").is_none());
    assert!(res.headers().get("sunset").is_none());
    let res = app.get(&format!("/categories/{cat}")).await;
    assert!(res.headers().get("deprecation").is_none());
}

#[tokio::test]
async fn the_openapi_document_marks_the_single_pet_read_deprecated() {
    let app = TestApp::spawn().await;
    let res = app.get_without_key("/openapi.json").await;
    assert_eq!(res.status(), 200);
    let doc = body(res).await;
    assert_eq!(doc["paths"]["/pets/{petId}"]["get"]["deprecated"], true);
    assert_ne!(doc["paths"]["/pets/{petId}"]["put"]["deprecated"], true);
}

#[tokio::test]
async fn beta_operations_say_so_in_x_stability() {
    let app = TestApp::spawn().await;
    let res = app.get("/admin/keys").await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-stability"), "beta");
    let res = app.get("/pets").await;
    assert!(res.headers().get("x-stability").is_none());
}

#[tokio::test]
async fn the_sunset_is_judged_by_the_servers_clock() {
    use petstore::limits::TestClock;
    let after_default_sunset = Utc
        .with_ymd_and_hms(2027, 7, 1, 0, 0, 0)
        .unwrap()
        .timestamp();
    let clock = std::sync::Arc::new(TestClock::new(after_default_sunset));
    let app = TestApp::builder().clock(clock).spawn().await;
    let res = app.get("/pets/1").await;
    assert_deprecation_headers(&res, "1", "Wed, 30 Jun 2027 00:00:00 GMT");
    assert_error(res, 410, "gone").await;
}
