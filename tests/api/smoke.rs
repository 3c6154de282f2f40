//! The first two things any client meets: a new store's empty, paged pet list, and the
//! refusal of a request without a key.

use serde_json::json;

use crate::support::{assert_error, body, TestApp};

#[tokio::test]
async fn a_new_store_answers_with_an_empty_pet_list_and_the_paging_headers() {
    let app = TestApp::spawn().await;
    let res = app.get("/pets").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-total-count"], "0");
    assert_eq!(body(res).await, json!([]));
}

#[tokio::test]
async fn a_request_without_a_key_is_refused() {
    let app = TestApp::spawn().await;
    let res = app.get_without_key("/pets").await;
    assert_error(res, 401, "unauthorized").await;
}
