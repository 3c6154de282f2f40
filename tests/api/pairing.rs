//! Pairing a till: a one-time code and its QR code, traded once for a key with no key sent.

use std::sync::Arc;

use petstore::limits::TestClock;
use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, assert_error_saying, body, header, TestApp};

async fn open_pairing(app: &TestApp, role: &str) -> Value {
    let res = app
        .post(
            "/admin/pairings",
            json!({ "name": "till 2", "role": role, "plan": "pro" }),
        )
        .await;
    assert_eq!(res.status(), 201, "opening a pairing");
    assert_eq!(header(&res, "x-stability"), "beta");
    body(res).await
}

async fn pair(app: &TestApp, code: &str) -> reqwest::Response {
    app.post_without_key("/pair", json!({ "code": code })).await
}

#[tokio::test]
async fn a_pairing_code_is_traded_once_for_a_key_that_sells() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Nemo", cat, 3).await;
    let pairing = open_pairing(&app, "pos").await;
    let code = pairing["code"].as_str().unwrap();
    assert_eq!(code.len(), 8);
    assert!(
        code.chars()
            .all(|c| "ABCDEFGHJKMNPQRSTUVWXYZ23456789".contains(c)),
        "{code}"
    );
    assert_eq!(
        pairing["url"],
        format!("http://{}/pair?code={code}", app.addr)
    );
    let expires =
        chrono::DateTime::parse_from_rfc3339(pairing["expiresAt"].as_str().unwrap()).unwrap();
    let left = expires.timestamp() - chrono::Utc::now().timestamp();
    assert!(
        (595..=601).contains(&left),
        "valid 10 minutes, {left} s left"
    );

    let res = pair(&app, &code.to_lowercase()).await;
    assert_eq!(res.status(), 201);
    let location = header(&res, "location");
    let key = body(res).await;
    assert_eq!(key["name"], "till 2");
    assert_eq!(key["role"], "pos");
    assert_eq!(key["plan"], "pro");
    assert_eq!(location, format!("/admin/keys/{}", key["id"]));
    let secret = key["secret"].as_str().unwrap().to_owned();

    let res = app
        .request_as(&secret, Method::POST, "/store/orders")
        .json(&json!({ "petId": pet, "quantity": 1 }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "the paired till sells");
    let res = app
        .request_as(&secret, Method::POST, "/categories")
        .json(&json!({ "name": "Not for a till" }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;

    assert_error(pair(&app, code).await, 404, "not_found").await;
    let res = app.get(&format!("/admin/pairings/{code}/qr.svg")).await;
    assert_error(res, 404, "not_found").await;
}

#[tokio::test]
async fn an_expired_code_is_not_found() {
    let clock = Arc::new(TestClock::new(chrono::Utc::now().timestamp()));
    let app = TestApp::builder().clock(clock.clone()).spawn().await;
    let pairing = open_pairing(&app, "readonly").await;
    clock.advance(601);
    assert_error(
        pair(&app, pairing["code"].as_str().unwrap()).await,
        404,
        "not_found",
    )
    .await;
}

#[tokio::test]
async fn a_pairing_code_survives_a_restart_of_the_server() {
    let app = TestApp::spawn().await;
    let pairing = open_pairing(&app, "pos").await;
    let code = pairing["code"].as_str().unwrap().to_owned();
    let app = app.restart().await;
    let res = app.get(&format!("/admin/pairings/{code}/qr.svg")).await;
    assert_eq!(res.status(), 200, "the QR code is still drawn");
    let res = pair(&app, &code).await;
    assert_eq!(res.status(), 201);
    let key = body(res).await;
    assert_eq!(
        (&key["name"], &key["role"]),
        (&json!("till 2"), &json!("pos"))
    );
    assert_error(pair(&app, &code).await, 404, "not_found").await;
}

#[tokio::test]
async fn a_code_redeemed_twice_at_the_same_time_makes_exactly_one_key() {
    let app = TestApp::spawn().await;
    let before = body(app.get("/admin/keys").await).await;
    let pairing = open_pairing(&app, "pos").await;
    let code = pairing["code"].as_str().unwrap();
    let answers = futures_util::future::join_all((0..4).map(|_| pair(&app, code))).await;
    let mut statuses: Vec<u16> = answers.iter().map(|r| r.status().as_u16()).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 404, 404, 404]);
    let after = body(app.get("/admin/keys").await).await;
    let count = |keys: &Value| keys.as_array().unwrap().len();
    assert_eq!(count(&after), count(&before) + 1, "exactly one new key");
}

#[tokio::test]
async fn a_pairing_makes_no_admin_key_and_needs_an_admin() {
    let app = TestApp::spawn().await;
    let res = app
        .post(
            "/admin/pairings",
            json!({ "name": "boss tablet", "role": "admin", "plan": "pro" }),
        )
        .await;
    assert_error_saying(res, 422, "validation_failed", "role").await;
    let staff = app.key("staff", "pro").await;
    let res = app
        .request_as(&staff, Method::POST, "/admin/pairings")
        .json(&json!({ "name": "t", "role": "pos", "plan": "pro" }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    let res = app.post_without_key("/pair", json!({})).await;
    assert_error(res, 422, "validation_failed").await;
}

#[tokio::test]
async fn wrong_codes_get_the_callers_address_banned() {
    let app = TestApp::builder().args(|a| a.ban_after = 3).spawn().await;
    let pairing = open_pairing(&app, "pos").await;
    // More than `ban_after` wrong codes in a minute start the ban, as refusals do.
    for wrong in ["AAAAAAAA", "BBBBBBBB", "CCCCCCCC", "not-a-code"] {
        assert_error(pair(&app, wrong).await, 404, "not_found").await;
    }
    let res = pair(&app, "DDDDDDDD").await;
    assert_error(res, 429, "temporarily_banned").await;
    // Even the right code is refused while the address is banned.
    let res = pair(&app, pairing["code"].as_str().unwrap()).await;
    assert_eq!(res.status(), 429);
}

/// The QR code drawn by the server, rendered to PNG and read by an independent decoder,
/// gives back exactly the pairing's `url`. Needs `rsvg-convert` (librsvg2-bin) and
/// `zbarimg` (zbar-tools), which ./scripts/test.sh installs.
#[tokio::test]
async fn the_qr_code_decodes_to_exactly_the_pairing_url() {
    let app = TestApp::spawn().await;
    let pairing = open_pairing(&app, "pos").await;
    let code = pairing["code"].as_str().unwrap();
    assert_eq!(
        decoded_qr(&app, code).await,
        pairing["url"].as_str().unwrap()
    );
}

/// The text of the pairing's QR code: `qr.svg` rendered to PNG by `rsvg-convert` and decoded
/// by `zbarimg`.
pub async fn decoded_qr(app: &TestApp, code: &str) -> String {
    let res = app.get(&format!("/admin/pairings/{code}/qr.svg")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "content-type"), "image/svg+xml");
    let svg = res.bytes().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (svg_path, png_path) = (dir.path().join("qr.svg"), dir.path().join("qr.png"));
    std::fs::write(&svg_path, &svg).unwrap();
    let rendered = std::process::Command::new("rsvg-convert")
        .args([
            "--width",
            "400",
            "--height",
            "400",
            "--background-color",
            "white",
            "-o",
        ])
        .arg(&png_path)
        .arg(&svg_path)
        .output()
        .expect("rsvg-convert (Debian's librsvg2-bin) is installed");
    assert!(
        rendered.status.success(),
        "{}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    let decoded = std::process::Command::new("zbarimg")
        .args(["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable"])
        .arg(&png_path)
        .output()
        .expect("zbarimg (Debian's zbar-tools) is installed");
    assert!(
        decoded.status.success(),
        "{}",
        String::from_utf8_lossy(&decoded.stderr)
    );
    String::from_utf8(decoded.stdout)
        .unwrap()
        .trim_end_matches('\n')
        .to_owned()
}

#[tokio::test]
async fn the_pairing_page_is_served_without_a_key() {
    let app = TestApp::spawn().await;
    let res = app.get_without_key("/pair?code=K7QM4XPA").await;
    assert_eq!(res.status(), 200);
    assert!(header(&res, "content-type").starts_with("text/html"));
    let html = res.text().await.unwrap();
    assert!(html.contains("/ui/pair.js"), "{html}");
    let script = app.get_without_key("/ui/pair.js").await;
    assert_eq!(script.status(), 200);
    assert!(script.text().await.unwrap().contains("'/pair'"));
}

/// Whether the key with this id is listed as revoked.
async fn revoked(app: &TestApp, id: i64) -> bool {
    app.listed_key(id).await["revokedAt"].is_string()
}

#[tokio::test]
async fn a_stored_keys_plain_sign_out_is_refused_and_the_key_works_on() {
    let app = TestApp::spawn().await;
    let pairing = open_pairing(&app, "pos").await;
    let till = body(pair(&app, pairing["code"].as_str().unwrap()).await).await;
    let mut keys = vec![(
        "a paired till".to_owned(),
        till["id"].as_i64().unwrap(),
        till["secret"].as_str().unwrap().to_owned(),
    )];
    for role in ["readonly", "pos", "staff", "admin"] {
        let (id, secret) = app.key_with_id(role, "pro").await;
        keys.push((format!("a {role} key"), id, secret));
    }
    for (who, id, secret) in keys {
        let res = app.send_as(&secret, Method::DELETE, "/session").await;
        let message = assert_error(res, 400, "bad_request").await;
        assert!(
            message.contains("not a staff member's session") && message.contains("DELETE /pair"),
            "{who}: {message}"
        );
        let res = app.send_as(&secret, Method::GET, "/pets").await;
        assert_eq!(res.status(), 200, "{who} works on");
        assert!(!revoked(&app, id).await, "{who} is not revoked");
    }
}

#[tokio::test]
async fn a_paired_till_that_unpairs_itself_revokes_its_own_key_and_no_other() {
    let app = TestApp::spawn().await;
    let pairing = open_pairing(&app, "pos").await;
    let res = pair(&app, pairing["code"].as_str().unwrap()).await;
    let till = body(res).await;
    let secret = till["secret"].as_str().unwrap().to_owned();
    let other = app.key("pos", "pro").await;

    let res = app.send_as(&secret, Method::DELETE, "/pair").await;
    assert_eq!(res.status(), 204);
    assert_eq!(header(&res, "x-stability"), "beta");
    assert_error(
        app.send_as(&secret, Method::GET, "/pets").await,
        401,
        "unauthorized",
    )
    .await;
    assert!(
        revoked(&app, till["id"].as_i64().unwrap()).await,
        "no orphan key left active"
    );
    let again = app.send_as(&secret, Method::DELETE, "/pair").await;
    assert_error(again, 401, "unauthorized").await;
    let res = app.send_as(&other, Method::GET, "/pets").await;
    assert_eq!(res.status(), 200, "another till keeps its key");

    // Stored keys of every role but admin unpair the same way.
    for role in ["readonly", "staff"] {
        let (id, key) = app.key_with_id(role, "pro").await;
        let res = app.send_as(&key, Method::DELETE, "/pair").await;
        assert_eq!(res.status(), 204, "{role}");
        let res = app.send_as(&key, Method::GET, "/pets").await;
        assert_error(res, 401, "unauthorized").await;
        assert!(revoked(&app, id).await, "{role}");
    }
}

#[tokio::test]
async fn an_admin_key_and_a_staff_session_are_never_unpaired_and_work_on() {
    let app = TestApp::spawn().await;
    let res = app.delete("/pair").await;
    assert_error_saying(res, 400, "bad_request", "/admin/keys").await;
    assert_eq!(
        app.get("/pets").await.status(),
        200,
        "the admin key works on"
    );

    let res = app
        .post(
            "/admin/staff",
            json!({ "name": "Ann", "role": "staff", "pin": "0481" }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let res = app.sign_in("Ann", "0481").await;
    assert_eq!(res.status(), 201);
    let session = body(res).await["secret"].as_str().unwrap().to_owned();
    let res = app.send_as(&session, Method::DELETE, "/pair").await;
    assert_error_saying(res, 400, "bad_request", "DELETE /session").await;
    let res = app.send_as(&session, Method::GET, "/pets").await;
    assert_eq!(res.status(), 200, "the session goes on");

    let res = app.client.delete(app.url("/pair")).send().await.unwrap();
    assert_error(res, 401, "unauthorized").await;
}
