//! Staff members: `/admin/staff`, signing in by name and PIN at `/session`, and what a
//! member's session may do.

use std::sync::Arc;

use petstore::limits::TestClock;
use reqwest::{Method, Response};
use serde_json::{json, Value};

use crate::support::{assert_error, assert_error_saying, body, header, sqlite_only, TestApp};

/// 2026-11-22T10:00:18Z: no minute ends while a test runs on this clock.
const NOW: i64 = 1_795_305_600 + 10 * 3_600 + 18;

async fn clocked() -> (TestApp, Arc<TestClock>) {
    let clock = Arc::new(TestClock::new(NOW));
    let app = TestApp::builder().clock(clock.clone()).spawn().await;
    (app, clock)
}

/// A clocked server with the owner and Ann, a staff member whose PIN is 0481; Ann's record.
async fn clocked_with_owner_and_ann() -> (TestApp, Arc<TestClock>, Value) {
    let (app, clock) = clocked().await;
    owner(&app).await;
    let ann = app.add_member("Ann", "staff", "0481").await;
    (app, clock, ann)
}

/// The shop's owner, a manager member (any role may be the first member; see
/// `a_clerk_may_be_the_first_member_added_as_interface_1_1_allows`).
async fn owner(app: &TestApp) -> Value {
    app.add_member("Owner", "admin", "8642").await
}

async fn session_key(app: &TestApp, name: &str, pin: &str) -> String {
    let res = app.sign_in(name, pin).await;
    assert_eq!(res.status(), 201, "signing in as {name}");
    body(res).await["secret"].as_str().unwrap().to_owned()
}

/// Signing in as `name` with `pin` is refused: the name is locked (429 `temporarily_banned`).
/// Answers the message.
async fn assert_locked_out(app: &TestApp, name: &str, pin: &str) -> String {
    assert_error(app.sign_in(name, pin).await, 429, "temporarily_banned").await
}

async fn patch_member(app: &TestApp, id: &Value, change: Value) -> Response {
    app.send_json(Method::PATCH, &format!("/admin/staff/{id}"), change)
        .await
}

async fn get_as(app: &TestApp, key: &str, path: &str) -> Response {
    app.send_as(key, Method::GET, path).await
}

#[tokio::test]
async fn adding_a_member_answers_201_with_the_member_and_never_the_pin() {
    let app = TestApp::spawn().await;
    let first = owner(&app).await;
    let res = app
        .post(
            "/admin/staff",
            json!({ "name": "  Ann Lee ", "role": "staff", "pin": "0481" }),
        )
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(header(&res, "x-stability"), "beta");
    let location = header(&res, "location");
    let member = body(res).await;
    assert_eq!(location, format!("/admin/staff/{}", member["id"]));
    assert_eq!(member["name"], "Ann Lee");
    assert_eq!(member["role"], "staff");
    assert_eq!(member["disabledAt"], Value::Null);
    assert!(member["createdAt"].as_str().unwrap().ends_with('Z'));
    let keys: Vec<&str> = member
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(
        keys.len(),
        5,
        "exactly id, name, role, createdAt, disabledAt: {keys:?}"
    );

    let res = app.get("/admin/staff").await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-total-count"), "2");
    let text = res.text().await.unwrap();
    assert!(!text.contains("0481") && !text.contains("argon"), "{text}");
    let listed: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(listed, json!([first, member]));

    if !sqlite_only("the stored hash is read straight from the SQLite file") {
        return;
    }
    let stored: String = rusqlite::Connection::open(app.db_path())
        .unwrap()
        .query_row(
            "SELECT pin_hash FROM staff_members WHERE name = 'Ann Lee'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(stored.starts_with("$argon2id$"), "{stored}");
    assert!(!stored.contains("0481"));
}

#[tokio::test]
async fn a_member_needs_a_name_a_known_role_and_a_pin_of_four_to_eight_digits() {
    let app = TestApp::spawn().await;
    let cases = [
        (json!({ "role": "staff", "pin": "1234" }), "name"),
        (
            json!({ "name": "  ", "role": "staff", "pin": "1234" }),
            "name",
        ),
        (json!({ "name": "A", "pin": "1234" }), "role"),
        (json!({ "name": "A", "role": "pos", "pin": "1234" }), "role"),
        (
            json!({ "name": "A", "role": "Admin", "pin": "1234" }),
            "role",
        ),
        (json!({ "name": "A", "role": "staff" }), "pin"),
        (json!({ "name": "A", "role": "staff", "pin": "123" }), "pin"),
        (
            json!({ "name": "A", "role": "staff", "pin": "123456789" }),
            "pin",
        ),
        (
            json!({ "name": "A", "role": "staff", "pin": "12a4" }),
            "pin",
        ),
    ];
    for (sent, field) in cases {
        let message = assert_error(
            app.post("/admin/staff", sent.clone()).await,
            422,
            "validation_failed",
        )
        .await;
        assert!(message.contains(field), "{sent}: {message}");
    }
    let wrong_type = app
        .post(
            "/admin/staff",
            json!({ "name": "A", "role": "staff", "pin": 1234 }),
        )
        .await;
    assert_error(wrong_type, 400, "bad_request").await;
    let unknown = app
        .post(
            "/admin/staff",
            json!({ "name": "A", "role": "staff", "pin": "1234", "x": 1 }),
        )
        .await;
    assert_error(unknown, 400, "bad_request").await;
    assert_eq!(app.get_json("/admin/staff").await, json!([]));
}

#[tokio::test]
async fn a_clerk_may_be_the_first_member_added_as_interface_1_1_allows() {
    let app = TestApp::spawn().await;
    assert_eq!(
        app.add_member("Alex", "staff", "2468").await["role"],
        "staff"
    );
    assert_eq!(
        app.add_member("Kim", "readonly", "1122").await["role"],
        "readonly"
    );
}

#[tokio::test]
async fn names_are_unique_whatever_their_case() {
    let app = TestApp::spawn().await;
    owner(&app).await;
    app.add_member("Ann", "staff", "1111").await;
    let bob = app.add_member("Bob", "staff", "2222").await;
    let res = app
        .post(
            "/admin/staff",
            json!({ "name": "ANN", "role": "readonly", "pin": "3333" }),
        )
        .await;
    assert_error(res, 409, "duplicate_name").await;
    assert_error(
        patch_member(&app, &bob["id"], json!({ "name": "ann" })).await,
        409,
        "duplicate_name",
    )
    .await;
    let renamed = patch_member(&app, &bob["id"], json!({ "name": "BOB" })).await;
    assert_eq!(
        renamed.status(),
        200,
        "a member may change the case of their own name"
    );
}

#[tokio::test]
async fn signing_in_by_name_and_pin_answers_a_session_key_with_the_members_role() {
    let (app, _clock, ann) = clocked_with_owner_and_ann().await;
    let res = app.sign_in("ann", "0481").await;
    assert_eq!(res.status(), 201);
    assert_eq!(header(&res, "x-stability"), "beta");
    assert!(!header(&res, "x-ratelimit-limit").is_empty());
    let session = body(res).await;
    assert_eq!(session["staff"], ann);
    assert_eq!(
        session["expiresAt"], "2026-11-22T22:00:18Z",
        "12 hours from now"
    );
    let secret = session["secret"].as_str().unwrap();
    assert!(secret.len() >= 40);

    // Acts as a staff key: may change stock, may not manage keys.
    let res = get_as(&app, secret, "/pets").await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        header(&res, "x-ratelimit-limit"),
        "1000",
        "the business plan"
    );
    assert_error(get_as(&app, secret, "/admin/keys").await, 403, "forbidden").await;
    let cat = app.category("Dogs").await;
    let pet = app.pet_with_stock("Rex", cat, 1).await;
    let res = app
        .request_as(
            secret,
            Method::POST,
            &format!("/store/inventory/{pet}/adjustments"),
        )
        .json(&json!({ "delta": 2, "reason": "delivery" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn a_wrong_name_a_wrong_pin_and_a_disabled_member_get_the_same_answer() {
    let app = TestApp::spawn().await;
    owner(&app).await;
    let ann = app.add_member("Ann", "staff", "0481").await;
    app.add_member("Zed", "admin", "9999").await;
    patch_member(&app, &ann["id"], json!({ "disabled": true })).await;
    app.add_member("Bob", "staff", "2222").await;

    let mut answers = Vec::new();
    for (name, pin) in [("Nobody", "2222"), ("Bob", "2223"), ("Ann", "0481")] {
        let res = app.sign_in(name, pin).await;
        assert_eq!(res.status(), 401, "{name}");
        answers.push(res.text().await.unwrap());
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    let error: Value = serde_json::from_str(&answers[0]).unwrap();
    assert_eq!(error["code"], "unauthorized");
    assert_eq!(error["status"], 401);
}

#[tokio::test]
async fn signing_in_needs_a_name_and_a_pin_in_a_json_body() {
    let app = TestApp::spawn().await;
    let res = app
        .post_without_key("/session", json!({ "pin": "1234" }))
        .await;
    let message = assert_error(res, 422, "validation_failed").await;
    assert!(message.contains("name"));
    let res = app
        .post_without_key("/session", json!({ "name": "Ann" }))
        .await;
    assert!(assert_error(res, 422, "validation_failed")
        .await
        .contains("pin"));
    let res = app
        .client
        .post(app.url("/session"))
        .body("name=Ann")
        .send()
        .await
        .unwrap();
    assert_error(res, 415, "unsupported_media_type").await;
}

#[tokio::test]
async fn five_wrong_pins_lock_the_name_for_fifteen_minutes_even_for_the_right_pin() {
    let (app, clock, _) = clocked_with_owner_and_ann().await;
    app.add_member("Bob", "staff", "2222").await;
    for _ in 0..5 {
        assert_eq!(app.sign_in("Ann", "1111").await.status(), 401);
        clock.advance(60);
    }
    let res = app.sign_in("ANN", "0481").await;
    // Locked at the fifth wrong PIN, a minute ago.
    assert_eq!(header(&res, "retry-after"), (15 * 60 - 60).to_string());
    assert_error_saying(res, 429, "temporarily_banned", "minutes").await;
    assert_eq!(
        app.sign_in("Bob", "2222").await.status(),
        201,
        "other names are free"
    );

    clock.advance(14 * 60 - 1);
    let res = app.sign_in("Ann", "0481").await;
    assert_eq!(header(&res, "retry-after"), "1");
    clock.advance(1);
    assert_eq!(
        app.sign_in("Ann", "0481").await.status(),
        201,
        "unlocked after 15 minutes"
    );
}

#[tokio::test]
async fn names_that_belong_to_no_one_are_locked_the_same_way() {
    let (app, _clock) = clocked().await;
    for _ in 0..5 {
        assert_eq!(app.sign_in("Ghost", "1111").await.status(), 401);
    }
    assert_locked_out(&app, "Ghost", "1111").await;
}

#[tokio::test]
async fn a_lock_and_the_wrong_pins_before_it_outlive_a_restart_of_the_server() {
    let (app, clock, _) = clocked_with_owner_and_ann().await;
    app.add_member("Bob", "staff", "2222").await;
    for _ in 0..5 {
        assert_eq!(app.sign_in("Ann", "1111").await.status(), 401);
    }
    for _ in 0..4 {
        assert_eq!(app.sign_in("Bob", "1111").await.status(), 401);
    }
    let app = app.restart().await;
    let res = app.sign_in("Ann", "0481").await;
    assert_eq!(header(&res, "retry-after"), (15 * 60).to_string());
    assert_error(res, 429, "temporarily_banned").await;
    clock.advance(60);
    assert_eq!(app.sign_in("Bob", "1111").await.status(), 401);
    assert_locked_out(&app, "Bob", "2222").await;
}

#[tokio::test]
async fn a_burst_of_concurrent_wrong_pins_checks_no_more_pins_than_the_lock_allows() {
    let (app, _clock) = clocked().await;
    app.add_member("Bob", "admin", "4821").await;
    let gate = Arc::new(tokio::sync::Barrier::new(50));
    let tries: Vec<_> = (0..50)
        .map(|i| {
            let (client, url, gate) = (app.client.clone(), app.url("/session"), gate.clone());
            tokio::spawn(async move {
                gate.wait().await;
                let pin = format!("{:04}", 1000 + i);
                let res = client
                    .post(url)
                    .json(&json!({ "name": "Bob", "pin": pin }))
                    .send()
                    .await
                    .unwrap();
                res.status().as_u16()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tries {
        statuses.push(t.await.unwrap());
    }
    let checked = statuses.iter().filter(|&&s| s == 401).count();
    let locked = statuses.iter().filter(|&&s| s == 429).count();
    assert_eq!((checked, locked), (5, 45), "{statuses:?}");
    assert_locked_out(&app, "Bob", "4821").await;
}

#[tokio::test]
async fn a_device_guessing_a_name_locks_it_for_itself_and_not_for_the_other_devices() {
    let (app, _clock) = clocked().await;
    app.add_member("Owner", "admin", "4821").await;
    let guesser: std::net::IpAddr = "192.0.2.66".parse().unwrap();
    let attempt = |pin: &str| petstore::domain::staff::SignIn {
        name: "owner".into(),
        pin: pin.into(),
    };
    for i in 0..5 {
        let refused = app
            .app
            .sign_in(attempt(&format!("{i:04}")), guesser)
            .await
            .err();
        assert!(
            matches!(refused, Some(petstore::SignInRefused::Unknown)),
            "{refused:?}"
        );
    }
    let refused = app.app.sign_in(attempt("4821"), guesser).await.err();
    assert!(
        matches!(refused, Some(petstore::SignInRefused::Locked(900))),
        "the guessing device is locked out, even with the right PIN: {refused:?}"
    );
    assert_eq!(
        app.sign_in("Owner", "4821").await.status(),
        201,
        "the counter PC still signs the owner in"
    );
    // Wrong PINs from the counter PC are its own: four of them and a right one lock nothing.
    for _ in 0..4 {
        assert_eq!(app.sign_in("Owner", "1111").await.status(), 401);
    }
    assert_eq!(app.sign_in("Owner", "4821").await.status(), 201);
}

#[tokio::test]
async fn a_manager_lifts_a_members_pin_lock_on_every_device_and_only_theirs() {
    let (app, _clock, ann) = clocked_with_owner_and_ann().await;
    app.add_member("Bob", "staff", "2222").await;
    let tablet: std::net::IpAddr = "192.0.2.66".parse().unwrap();
    let attempt = |name: &str, pin: &str| petstore::domain::staff::SignIn {
        name: name.into(),
        pin: pin.into(),
    };
    // Ann locked on this machine and on a tablet; Bob locked here too; Ann's "Ann@..." is not
    // a prefix match for anyone else's lock.
    for _ in 0..5 {
        assert_eq!(app.sign_in("Ann", "1111").await.status(), 401);
        assert_eq!(app.sign_in("Bob", "1111").await.status(), 401);
        let _ = app.app.sign_in(attempt("ann", "1111"), tablet).await;
    }
    assert_locked_out(&app, "Ann", "0481").await;
    assert_locked_out(&app, "Bob", "2222").await;

    let res = app
        .delete(&format!("/admin/staff/{}/lock", ann["id"]))
        .await;
    assert_eq!(res.status(), 204);
    assert_eq!(header(&res, "x-stability"), "beta");
    assert_eq!(
        app.sign_in("Ann", "0481").await.status(),
        201,
        "unlocked here"
    );
    assert!(
        app.app
            .sign_in(attempt("ANN", "0481"), tablet)
            .await
            .is_ok(),
        "and on the tablet"
    );
    assert_locked_out(&app, "Bob", "2222").await;

    // Lifting a lock that is not there changes nothing; an unknown member is 404; a
    // manager only.
    let again = app
        .delete(&format!("/admin/staff/{}/lock", ann["id"]))
        .await;
    assert_eq!(again.status(), 204);
    let unknown = app.delete("/admin/staff/999/lock").await;
    assert_error(unknown, 404, "not_found").await;
    let clerk = session_key(&app, "Ann", "0481").await;
    let res = app
        .send_as(
            &clerk,
            Method::DELETE,
            &format!("/admin/staff/{}/lock", ann["id"]),
        )
        .await;
    assert_error(res, 403, "forbidden").await;
}

#[tokio::test]
async fn wrong_pins_count_toward_the_guessing_addresss_ban() {
    let (app, _clock, _) = clocked_with_owner_and_ann().await;
    // 31 wrong PINs in one minute, at most 4 per name so no name is locked: the 31st
    // refusal starts the address's ban (more than 30 in a minute).
    let names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"];
    for n in 0..31 {
        let name = names[n / 4];
        assert_eq!(app.sign_in(name, "9999").await.status(), 401, "{name}");
    }
    let res = app.sign_in("Ann", "0481").await;
    assert_error_saying(res, 429, "temporarily_banned", "banned").await;
    // A key from the same address is a caller of its own.
    assert_eq!(app.get("/pets").await.status(), 200);
}

#[tokio::test]
async fn wrong_pins_more_than_fifteen_minutes_apart_do_not_lock() {
    let (app, clock, _) = clocked_with_owner_and_ann().await;
    for _ in 0..6 {
        assert_eq!(app.sign_in("Ann", "1111").await.status(), 401);
        clock.advance(4 * 60);
    }
    assert_eq!(app.sign_in("Ann", "0481").await.status(), 201);
}

#[tokio::test]
async fn signing_out_ends_the_session_and_only_that_one() {
    let app = TestApp::spawn().await;
    owner(&app).await;
    app.add_member("Ann", "staff", "0481").await;
    let first = session_key(&app, "Ann", "0481").await;
    let second = session_key(&app, "Ann", "0481").await;
    let res = app.send_as(&first, Method::DELETE, "/session").await;
    assert_eq!(res.status(), 204);
    assert_eq!(header(&res, "x-stability"), "beta");
    assert_error(get_as(&app, &first, "/pets").await, 401, "unauthorized").await;
    assert_eq!(get_as(&app, &second, "/pets").await.status(), 200);
    let again = app.send_as(&first, Method::DELETE, "/session").await;
    assert_error(again, 401, "unauthorized").await;
    let anonymous = app.client.delete(app.url("/session")).send().await.unwrap();
    assert_error(anonymous, 401, "unauthorized").await;
    let key = app.delete("/session").await;
    assert_error(key, 400, "bad_request").await;
}

#[tokio::test]
async fn a_session_ends_after_twelve_hours_without_use_and_use_keeps_it_open() {
    let (app, clock, _) = clocked_with_owner_and_ann().await;
    let busy = session_key(&app, "Ann", "0481").await;
    let idle = session_key(&app, "Ann", "0481").await;
    for _ in 0..3 {
        clock.advance(5 * 3_600);
        assert_eq!(get_as(&app, &busy, "/pets").await.status(), 200);
    }
    assert_error(get_as(&app, &idle, "/pets").await, 401, "unauthorized").await;
    clock.advance(12 * 3_600 + 1);
    assert_error(get_as(&app, &busy, "/pets").await, 401, "unauthorized").await;
}

#[tokio::test]
async fn a_session_survives_a_restart_but_not_its_idle_time() {
    let (app, clock, _) = clocked_with_owner_and_ann().await;
    let secret = session_key(&app, "Ann", "0481").await;
    let app = app.restart().await;
    assert_eq!(get_as(&app, &secret, "/pets").await.status(), 200);
    clock.advance(12 * 3_600 + 1);
    let app = app.restart().await;
    assert_error(get_as(&app, &secret, "/pets").await, 401, "unauthorized").await;
}

#[tokio::test]
async fn disabling_a_member_ends_their_sessions_at_once_and_they_cannot_sign_in() {
    let app = TestApp::spawn().await;
    owner(&app).await;
    let ann = app.add_member("Ann", "staff", "0481").await;
    let secret = session_key(&app, "Ann", "0481").await;
    let res = patch_member(&app, &ann["id"], json!({ "disabled": true })).await;
    assert_eq!(res.status(), 200);
    let member = body(res).await;
    assert!(member["disabledAt"].as_str().unwrap().ends_with('Z'));
    assert_error(get_as(&app, &secret, "/pets").await, 401, "unauthorized").await;
    assert_eq!(app.sign_in("Ann", "0481").await.status(), 401);

    let res = patch_member(&app, &ann["id"], json!({ "disabled": false })).await;
    assert_eq!(body(res).await["disabledAt"], Value::Null);
    assert_error(get_as(&app, &secret, "/pets").await, 401, "unauthorized").await;
    assert_eq!(app.sign_in("Ann", "0481").await.status(), 201);
}

#[tokio::test]
async fn a_new_role_applies_to_open_sessions_and_a_new_pin_ends_them() {
    let app = TestApp::spawn().await;
    owner(&app).await;
    let ann = app.add_member("Ann", "readonly", "0481").await;
    let secret = session_key(&app, "Ann", "0481").await;
    assert_error(
        get_as(&app, &secret, "/admin/staff").await,
        403,
        "forbidden",
    )
    .await;
    let res = patch_member(&app, &ann["id"], json!({ "role": "admin" })).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await["role"], "admin");
    assert_eq!(get_as(&app, &secret, "/admin/staff").await.status(), 200);

    let res = patch_member(&app, &ann["id"], json!({ "pin": "7777" })).await;
    assert_eq!(res.status(), 200);
    assert_error(get_as(&app, &secret, "/pets").await, 401, "unauthorized").await;
    assert_eq!(app.sign_in("Ann", "0481").await.status(), 401);
    let secret = session_key(&app, "Ann", "7777").await;
    assert_eq!(get_as(&app, &secret, "/admin/staff").await.status(), 200);
}

#[tokio::test]
async fn the_last_enabled_admin_member_cannot_be_disabled_or_demoted() {
    let app = TestApp::spawn().await;
    let ann = app.add_member("Ann", "admin", "0481").await;
    let bob = app.add_member("Bob", "staff", "2222").await;
    for change in [
        json!({ "disabled": true }),
        json!({ "role": "staff" }),
        json!({ "role": "readonly" }),
    ] {
        let res = patch_member(&app, &ann["id"], change.clone()).await;
        assert_error(res, 409, "conflict").await;
    }
    assert_eq!(app.get_json("/admin/staff").await[0], ann, "unchanged");

    assert_eq!(
        patch_member(&app, &bob["id"], json!({ "role": "admin" }))
            .await
            .status(),
        200
    );
    assert_eq!(
        patch_member(&app, &ann["id"], json!({ "disabled": true }))
            .await
            .status(),
        200
    );
    let res = patch_member(&app, &bob["id"], json!({ "role": "staff" })).await;
    assert_error(res, 409, "conflict").await;
    // A disabled admin does not count: enabling Ann makes Bob's demotion possible.
    assert_eq!(
        patch_member(&app, &ann["id"], json!({ "disabled": false }))
            .await
            .status(),
        200
    );
    assert_eq!(
        patch_member(&app, &bob["id"], json!({ "role": "staff" }))
            .await
            .status(),
        200
    );
}

#[tokio::test]
async fn patch_honours_if_match_and_unknown_members_are_404() {
    let app = TestApp::spawn().await;
    owner(&app).await;
    let ann = app.add_member("Ann", "staff", "0481").await;
    let res = app
        .request(Method::PATCH, &format!("/admin/staff/{}", ann["id"]))
        .header("If-Match", "\"stale\"")
        .json(&json!({ "name": "Anne" }))
        .send()
        .await
        .unwrap();
    assert_error(res, 412, "precondition_failed").await;
    assert_error(
        patch_member(&app, &json!(999), json!({ "name": "X" })).await,
        404,
        "not_found",
    )
    .await;
    assert_error(
        patch_member(&app, &ann["id"], json!({ "pin": "12" })).await,
        422,
        "validation_failed",
    )
    .await;
    assert_error(
        patch_member(&app, &ann["id"], json!({ "disabled": "yes" })).await,
        400,
        "bad_request",
    )
    .await;
}

#[tokio::test]
async fn only_admins_manage_staff_members() {
    let app = TestApp::spawn().await;
    owner(&app).await;
    let ann = app.add_member("Ann", "staff", "0481").await;
    for role in ["readonly", "pos", "staff"] {
        let key = app.key(role, "pro").await;
        assert_error(get_as(&app, &key, "/admin/staff").await, 403, "forbidden").await;
        let res = app
            .request_as(&key, Method::POST, "/admin/staff")
            .json(&json!({ "name": "X", "role": "admin", "pin": "1234" }))
            .send()
            .await
            .unwrap();
        assert_error(res, 403, "forbidden").await;
        let res = app
            .request_as(&key, Method::PATCH, &format!("/admin/staff/{}", ann["id"]))
            .json(&json!({ "role": "admin" }))
            .send()
            .await
            .unwrap();
        assert_error(res, 403, "forbidden").await;
    }
    let anonymous = app.get_without_key("/admin/staff").await;
    assert_error(anonymous, 401, "unauthorized").await;
}

/// The `data:` objects of the event stream from the start, until one satisfies `done`.
async fn events_until(
    app: &TestApp,
    res: Option<Response>,
    done: impl Fn(&Value) -> bool,
) -> Vec<Value> {
    use futures_util::StreamExt;
    let res = match res {
        Some(res) => res,
        None => open_events(app).await,
    };
    let mut stream = res.bytes_stream();
    let mut text = String::new();
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            for line in block.lines() {
                if let Some(data) = line.strip_prefix("data: ") {
                    if let Ok(value) = serde_json::from_str::<Value>(data) {
                        let finished = done(&value);
                        seen.push(value);
                        if finished {
                            return seen;
                        }
                    }
                }
            }
        }
        let chunk = tokio::time::timeout_at(deadline, stream.next())
            .await
            .expect("the awaited event did not come")
            .expect("the stream ended")
            .unwrap();
        text.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

async fn open_events(app: &TestApp) -> Response {
    let res = app
        .request(Method::GET, "/events")
        .header("Last-Event-ID", "0")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    res
}

#[tokio::test]
async fn stock_history_and_events_made_with_a_session_name_the_member() {
    let app = TestApp::spawn().await;
    owner(&app).await;
    let ann = app.add_member("Ann", "staff", "0481").await;
    let secret = session_key(&app, "Ann", "0481").await;
    let cat = app.category("Dogs").await;
    let pet = app.pet_with_stock("Rex", cat, 5).await;
    let live = open_events(&app).await;

    let res = app
        .request_as(
            &secret,
            Method::POST,
            &format!("/store/inventory/{pet}/adjustments"),
        )
        .json(&json!({ "delta": 3, "reason": "delivery" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let res = app
        .request_as(&secret, Method::POST, "/store/orders")
        .json(&json!({ "petId": pet, "quantity": 1 }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);

    let history = app
        .get_json(&format!("/store/inventory/{pet}/adjustments"))
        .await;
    let entries = history.as_array().unwrap();
    assert_eq!(entries.len(), 3);
    for entry in &entries[..2] {
        assert_eq!(entry["keyName"], "Ann", "{entry}");
        assert_eq!(entry["staffId"], ann["id"], "{entry}");
    }
    assert_eq!(entries[0]["source"], "order");
    assert_eq!(entries[1]["reason"], "delivery");
    assert_eq!(
        entries[2]["keyName"], "admin",
        "a key's change names the key"
    );
    assert!(
        entries[2].get("staffId").is_none(),
        "as in 1.0: {}",
        entries[2]
    );

    // Live, as the change commits, and again when a client resumes from the start.
    let by_ann = |e: &Value| e["type"] == "order.created";
    for seen in [
        events_until(&app, Some(live), by_ann).await,
        events_until(&app, None, by_ann).await,
    ] {
        let inventory: Vec<&Value> = seen
            .iter()
            .filter(|e| e["type"] == "inventory.updated")
            .collect();
        let last = inventory.last().unwrap();
        assert_eq!(last["keyName"], "Ann", "{last}");
        assert_eq!(last["staffId"], ann["id"]);
        let order = seen.last().unwrap();
        assert_eq!(
            (&order["keyName"], &order["staffId"]),
            (&json!("Ann"), &ann["id"])
        );
        let by_admin = seen.iter().find(|e| e["type"] == "pet.created").unwrap();
        assert!(by_admin.get("staffId").is_none(), "{by_admin}");
    }
}

#[tokio::test]
async fn the_last_active_admin_key_stays_even_beside_an_admin_members_session() {
    let app = TestApp::spawn().await;
    app.add_member("Ann", "admin", "0481").await;
    let session = session_key(&app, "Ann", "0481").await;
    let keys = app.get_json("/admin/keys").await;
    let admin_id = keys[0]["id"].clone();
    for (method, change) in [
        (Method::DELETE, None),
        (Method::PATCH, Some(json!({ "role": "staff" }))),
    ] {
        let mut req = app.request_as(&session, method, &format!("/admin/keys/{admin_id}"));
        if let Some(change) = change {
            req = req.json(&change);
        }
        assert_error_saying(
            req.send().await.unwrap(),
            409,
            "conflict",
            "last active admin key",
        )
        .await;
    }
    assert_eq!(
        app.get("/admin/keys").await.status(),
        200,
        "the key still works"
    );

    let (other, _) = app.key_with_id("admin", "pro").await;
    let res = app
        .send_as(&session, Method::DELETE, &format!("/admin/keys/{admin_id}"))
        .await;
    assert_eq!(res.status(), 204, "another admin key remains");
    let res = app
        .send_as(&session, Method::DELETE, &format!("/admin/keys/{other}"))
        .await;
    assert_error(res, 409, "conflict").await;
}
