//! DNS rebinding: a request whose `Host` is a public name the shop did not allow is 421
//! `misdirected_request`, before any key, PIN or body is looked at; addresses, loopback and
//! the shop network's own names, and configured names, are answered.

use reqwest::Method;
use serde_json::json;

use crate::support::{assert_error, assert_error_saying, TestApp};

async fn get_with_host(app: &TestApp, path: &str, host: &str) -> reqwest::Response {
    app.request(Method::GET, path)
        .header("host", host)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_rebound_public_name_is_refused_421_on_every_kind_of_route() {
    let app = TestApp::spawn().await;
    let evil = "rebind.attacker.example";
    for path in ["/", "/health", "/pets", "/openapi.json"] {
        let res = get_with_host(&app, path, evil).await;
        assert_error_saying(res, 421, "misdirected_request", "--allow-host").await;
    }
    // A sign-in through a rebound name is refused before its PIN is looked at.
    let res = app
        .request(Method::POST, "/session")
        .header("host", format!("{evil}:{}", app.addr.port()))
        .json(&json!({ "name": "Ann", "pin": "1234" }))
        .send()
        .await
        .unwrap();
    assert_error(res, 421, "misdirected_request").await;
}

#[tokio::test]
async fn addresses_loopback_and_the_shops_own_names_are_answered() {
    let app = TestApp::spawn().await;
    let port = app.addr.port();
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        format!("192.168.1.20:{port}"),
        "counter-pc".to_owned(),
        format!("counter-pc.local:{port}"),
        "till.lan".to_owned(),
    ] {
        let res = get_with_host(&app, "/pets", &host).await;
        assert_eq!(res.status(), 200, "{host}");
    }
}

#[tokio::test]
async fn a_name_allowed_in_the_settings_is_answered_and_others_still_refused() {
    let app = TestApp::builder()
        .args(|a| a.allow_hosts = vec!["PetStore.Shop.example".into()])
        .spawn()
        .await;
    let res = get_with_host(&app, "/pets", "petstore.shop.example:8080").await;
    assert_eq!(res.status(), 200);
    let res = get_with_host(&app, "/pets", "other.shop.example").await;
    assert_error(res, 421, "misdirected_request").await;
}
