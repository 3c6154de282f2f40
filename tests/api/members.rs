//! A staff member is one subject however often they sign in: every session of the member
//! shares one quota, one ban and one share of the event-stream places.

use std::sync::Arc;

use petstore::limits::TestClock;
use reqwest::{Method, Response};

use crate::support::{assert_error, assert_error_saying, body, TestApp};

async fn session_key(app: &TestApp, name: &str, role: &str, pin: &str) -> String {
    let res = app.sign_in(name, pin).await;
    assert_eq!(res.status(), 201, "signing in as {name} ({role})");
    body(res).await["secret"].as_str().unwrap().to_owned()
}

async fn get_as(app: &TestApp, key: &str, path: &str) -> Response {
    app.send_as(key, Method::GET, path).await
}

#[tokio::test]
async fn signing_in_again_escapes_neither_the_members_quota_nor_their_ban() {
    // 2026-11-22T10:00:18Z, held still: no minute window ends while the quota is spent.
    let clock = Arc::new(TestClock::new(1_795_341_618));
    let app = TestApp::builder().clock(clock).spawn().await;
    app.add_member("Ann", "readonly", "0481").await;
    let first = session_key(&app, "Ann", "readonly", "0481").await;
    let per_minute = petstore::contract::PLANS
        .iter()
        .find(|p| p.name == "business")
        .and_then(|p| p.per_minute)
        .unwrap();
    for n in 0..per_minute {
        let res = get_as(&app, &first, "/categories").await;
        assert_eq!(res.status(), 200, "request {n} of the quota");
    }
    assert_error(
        get_as(&app, &first, "/categories").await,
        429,
        "rate_limited",
    )
    .await;
    // A new session of the same member is over the same quota.
    let second = session_key(&app, "Ann", "readonly", "0481").await;
    assert_error(
        get_as(&app, &second, "/categories").await,
        429,
        "rate_limited",
    )
    .await;

    // Refused often enough, the member is banned, and a new session is too.
    let ban_after = petstore::contract::DEFAULTS.ban_after;
    for _ in 0..ban_after {
        let _ = get_as(&app, &second, "/categories").await;
    }
    assert_error(
        get_as(&app, &second, "/categories").await,
        429,
        "temporarily_banned",
    )
    .await;
    let third = session_key(&app, "Ann", "readonly", "0481").await;
    assert_error(
        get_as(&app, &third, "/categories").await,
        429,
        "temporarily_banned",
    )
    .await;

    // Another member and the admin key are not touched.
    app.add_member("Bob", "readonly", "0482").await;
    let bob = session_key(&app, "Bob", "readonly", "0482").await;
    assert_eq!(get_as(&app, &bob, "/categories").await.status(), 200);
    assert_eq!(app.get("/categories").await.status(), 200);
}

#[tokio::test]
async fn a_members_sessions_share_one_keys_worth_of_event_stream_places() {
    let app = TestApp::spawn().await;
    app.add_member("Ann", "readonly", "0481").await;
    let first = session_key(&app, "Ann", "readonly", "0481").await;
    let second = session_key(&app, "Ann", "readonly", "0481").await;
    let mut open = Vec::new();
    for n in 0..petstore::limits::PER_KEY {
        let key = if n % 2 == 0 { &first } else { &second };
        let res = get_as(&app, key, "/events").await;
        assert_eq!(res.status(), 200, "stream {n}");
        open.push(res);
    }
    let res = get_as(&app, &second, "/events").await;
    assert_error_saying(res, 503, "unavailable", "already has").await;
    // A till's own key still gets a place.
    let till = app.key("readonly", "business").await;
    assert_eq!(get_as(&app, &till, "/events").await.status(), 200);
    drop(open);
}
