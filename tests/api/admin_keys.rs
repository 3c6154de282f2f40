//! `/admin/keys` over HTTP: creating keys (the secret shown once), listing them with their usage,
//! changing and revoking them, and who may do so.

use std::sync::Arc;

use petstore::limits::TestClock;
use reqwest::{Method, Response};
use serde_json::{json, Value};

use crate::support::{assert_error, body, header, header_num, TestApp, ADMIN_KEY};

async fn get_as(app: &TestApp, key: &str, path: &str) -> Response {
    app.send_as(key, Method::GET, path).await
}

async fn patch(app: &TestApp, id: i64, change: Value) -> Response {
    app.send_json(Method::PATCH, &format!("/admin/keys/{id}"), change)
        .await
}

fn is_rfc3339(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|t| chrono::DateTime::parse_from_rfc3339(t).is_ok())
}

#[tokio::test]
async fn creating_a_key_answers_201_with_its_secret_once_a_location_and_an_etag() {
    let app = TestApp::spawn().await;
    let res = app
        .post(
            "/admin/keys",
            json!({ "name": "  Till 1 ", "role": "pos", "plan": "pro" }),
        )
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(header(&res, "x-stability"), "beta");
    assert!(header(&res, "etag").starts_with('"'));
    let location = header(&res, "location");
    let key = body(res).await;
    let id = key["id"].as_i64().unwrap();
    assert_eq!(location, format!("/admin/keys/{id}"));
    assert_eq!(key["name"], "Till 1");
    assert_eq!((&key["role"], &key["plan"]), (&json!("pos"), &json!("pro")));
    assert_eq!(
        (&key["perMinute"], &key["perDay"]),
        (&json!(300), &json!(10_000))
    );
    assert!(is_rfc3339(&key["createdAt"]), "{key}");
    assert_eq!(key["lastUsedAt"], Value::Null);
    assert_eq!(key["revokedAt"], Value::Null);
    let secret = key["secret"].as_str().unwrap();
    let prefix = key["prefix"].as_str().unwrap();
    assert!(secret.len() >= 32, "a long random secret");
    assert!(
        !prefix.is_empty() && secret.starts_with(prefix),
        "{prefix} / {secret}"
    );
    assert!(
        prefix.len() < secret.len() / 2,
        "the prefix gives the secret away"
    );

    // The secret works at once, in either header.
    assert_eq!(get_as(&app, secret, "/pets").await.status(), 200);
    let res = app
        .client
        .get(app.url("/store/orders"))
        .bearer_auth(secret)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    // Two keys never share a secret.
    let (_, other) = app.key_with_id("pos", "pro").await;
    assert_ne!(other, secret);
}

#[tokio::test]
async fn the_key_list_never_shows_secrets_but_shows_prefix_usage_ban_and_last_use() {
    // 2026-11-22T10:00:18Z on a test clock, so that no minute ends during the test.
    let now = 1_795_305_600 + 10 * 3_600 + 18;
    let app = TestApp::builder()
        .clock(Arc::new(TestClock::new(now)))
        .spawn()
        .await;
    let (id, secret) = app.key_with_id("readonly", "free").await;
    let before = app.listed_key(id).await;
    assert_eq!(before["lastUsedAt"], Value::Null);
    assert_eq!(before["usage"]["minute"]["used"], 0);

    for _ in 0..3 {
        assert_eq!(get_as(&app, &secret, "/pets").await.status(), 200);
    }
    let res = app.get("/admin/keys").await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-stability"), "beta");
    let text = res.text().await.unwrap();
    assert!(!text.contains(&secret), "a secret is listed");
    assert!(!text.contains(ADMIN_KEY), "the admin secret is listed");
    let keys: Value = serde_json::from_str(&text).unwrap();
    for key in keys.as_array().unwrap() {
        assert!(key.get("secret").is_none(), "{key}");
        let mut fields: Vec<&str> = key
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        fields.sort_unstable();
        assert_eq!(
            fields,
            [
                "bannedUntil",
                "createdAt",
                "id",
                "lastUsedAt",
                "name",
                "perDay",
                "perMinute",
                "plan",
                "prefix",
                "revokedAt",
                "role",
                "usage"
            ]
        );
    }
    let admin = &keys[0];
    assert_eq!(
        (&admin["role"], &admin["plan"]),
        (&json!("admin"), &json!("enterprise"))
    );
    assert_eq!(
        (&admin["perMinute"], &admin["perDay"]),
        (&json!(10_000), &json!(1_000_000))
    );

    let key = app.listed_key(id).await;
    assert!(secret.starts_with(key["prefix"].as_str().unwrap()));
    assert_eq!(key["lastUsedAt"], "2026-11-22T10:00:18Z", "{key}");
    assert_eq!(key["bannedUntil"], Value::Null);
    assert_eq!(
        key["usage"],
        json!({
            "minute": { "used": 3, "limit": 60, "remaining": 57, "reset": now + 42 },
            "day": { "used": 3, "limit": 1_000, "remaining": 997, "reset": 1_795_305_600 + 86_400 },
        })
    );
}

#[tokio::test]
async fn enterprise_keys_need_per_minute_and_per_day_and_other_plans_refuse_them() {
    let app = TestApp::spawn().await;
    let refused = [
        json!({ "name": "e", "role": "pos", "plan": "enterprise" }),
        json!({ "name": "e", "role": "pos", "plan": "enterprise", "perMinute": 10 }),
        json!({ "name": "e", "role": "pos", "plan": "enterprise", "perDay": 10 }),
        json!({ "name": "e", "role": "pos", "plan": "enterprise", "perMinute": 0, "perDay": 10 }),
        json!({ "name": "e", "role": "pos", "plan": "enterprise", "perMinute": 10, "perDay": 100_000_001 }),
        json!({ "name": "p", "role": "pos", "plan": "pro", "perMinute": 10 }),
        json!({ "name": "f", "role": "pos", "plan": "free", "perDay": 10 }),
        json!({ "name": "b", "role": "pos", "plan": "business", "perMinute": 1, "perDay": 2 }),
        json!({ "name": "x", "role": "pos", "plan": "gold" }),
        json!({ "name": "x", "role": "pos", "plan": "Free" }),
        json!({ "name": "x", "role": "owner", "plan": "free" }),
        json!({ "name": "", "role": "pos", "plan": "free" }),
        json!({ "role": "pos", "plan": "free" }),
    ];
    for new in refused {
        let message = assert_error(
            app.post("/admin/keys", new.clone()).await,
            422,
            "validation_failed",
        )
        .await;
        assert!(
            ["perMinute", "perDay", "plan", "role", "name"]
                .iter()
                .any(|f| message.contains(f)),
            "{new}: the message names no field: {message}"
        );
    }
    assert_error(
        app.post(
            "/admin/keys",
            json!({ "name": "x", "role": "pos", "plan": "free", "colour": "red" }),
        )
        .await,
        400,
        "bad_request",
    )
    .await;

    let res = app
        .post("/admin/keys", json!({ "name": "hq", "role": "pos", "plan": "enterprise", "perMinute": 7, "perDay": 70 }))
        .await;
    assert_eq!(res.status(), 201);
    let key = body(res).await;
    assert_eq!((&key["perMinute"], &key["perDay"]), (&json!(7), &json!(70)));
    let res = get_as(&app, key["secret"].as_str().unwrap(), "/pets").await;
    assert_eq!(header_num(&res, "x-ratelimit-limit"), 7);
}

#[tokio::test]
async fn patch_changes_name_role_plan_and_limits() {
    let app = TestApp::spawn().await;
    let (id, _) = app.key_with_id("pos", "free").await;

    let res = patch(&app, id, json!({ "name": "Till 2" })).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-stability"), "beta");
    assert!(header(&res, "etag").starts_with('"'));
    let key = body(res).await;
    assert_eq!(
        (&key["name"], &key["role"], &key["plan"]),
        (&json!("Till 2"), &json!("pos"), &json!("free"))
    );
    assert!(key.get("secret").is_none());

    let key = body(patch(&app, id, json!({ "role": "staff", "plan": "business" })).await).await;
    assert_eq!(
        (&key["role"], &key["plan"]),
        (&json!("staff"), &json!("business"))
    );
    assert_eq!(
        (&key["perMinute"], &key["perDay"]),
        (&json!(1_000), &json!(100_000))
    );

    // Enterprise needs both numbers; other plans refuse them.
    assert_error(
        patch(&app, id, json!({ "plan": "enterprise" })).await,
        422,
        "validation_failed",
    )
    .await;
    assert_error(
        patch(&app, id, json!({ "plan": "enterprise", "perMinute": 5 })).await,
        422,
        "validation_failed",
    )
    .await;
    assert_error(
        patch(&app, id, json!({ "perMinute": 5 })).await,
        422,
        "validation_failed",
    )
    .await;
    assert_error(
        patch(&app, id, json!({ "plan": "pro", "perDay": 5 })).await,
        422,
        "validation_failed",
    )
    .await;
    assert_error(
        patch(&app, id, json!({ "role": "root" })).await,
        422,
        "validation_failed",
    )
    .await;
    assert_error(
        patch(&app, id, json!({ "secret": "mine" })).await,
        400,
        "bad_request",
    )
    .await;
    let key = app.listed_key(id).await;
    assert_eq!(
        key["plan"], "business",
        "a refused patch changed nothing: {key}"
    );

    let key = body(
        patch(
            &app,
            id,
            json!({ "plan": "enterprise", "perMinute": 5, "perDay": 50 }),
        )
        .await,
    )
    .await;
    assert_eq!(
        (&key["plan"], &key["perMinute"], &key["perDay"]),
        (&json!("enterprise"), &json!(5), &json!(50))
    );
    // An enterprise key may change one number alone.
    let key = body(patch(&app, id, json!({ "perDay": 60 })).await).await;
    assert_eq!((&key["perMinute"], &key["perDay"]), (&json!(5), &json!(60)));
    // Leaving enterprise drops the numbers set on the key.
    let key = body(patch(&app, id, json!({ "plan": "free" })).await).await;
    assert_eq!(
        (&key["plan"], &key["perMinute"], &key["perDay"]),
        (&json!("free"), &json!(60), &json!(1_000))
    );
}

#[tokio::test]
async fn a_role_or_plan_change_takes_effect_on_the_next_request() {
    let app = TestApp::spawn().await;
    let (id, secret) = app.key_with_id("readonly", "free").await;
    let new_category = |name: &str| {
        app.request_as(&secret, Method::POST, "/categories")
            .json(&json!({ "name": name }))
            .send()
    };
    assert_error(new_category("Fish").await.unwrap(), 403, "forbidden").await;

    assert_eq!(
        patch(&app, id, json!({ "role": "staff", "plan": "pro" }))
            .await
            .status(),
        200
    );
    let res = new_category("Fish").await.unwrap();
    assert_eq!(res.status(), 201);
    assert_eq!(header_num(&res, "x-ratelimit-limit"), 300);

    assert_eq!(
        patch(&app, id, json!({ "role": "readonly" }))
            .await
            .status(),
        200
    );
    assert_error(new_category("Birds").await.unwrap(), 403, "forbidden").await;
}

#[tokio::test]
async fn revoking_a_key_stops_it_at_once_and_keeps_it_listed_with_revoked_at() {
    let app = TestApp::spawn().await;
    let (id, secret) = app.key_with_id("pos", "free").await;
    assert_eq!(get_as(&app, &secret, "/pets").await.status(), 200);

    let res = app.delete(&format!("/admin/keys/{id}")).await;
    assert_eq!(res.status(), 204);
    assert_eq!(header(&res, "x-stability"), "beta");
    assert!(res.bytes().await.unwrap().is_empty());
    assert_error(get_as(&app, &secret, "/pets").await, 401, "unauthorized").await;

    let key = app.listed_key(id).await;
    assert!(is_rfc3339(&key["revokedAt"]), "{key}");
    assert!(
        is_rfc3339(&key["lastUsedAt"]),
        "the last use before revoking is kept: {key}"
    );
    // Revoking again changes nothing.
    assert_eq!(app.delete(&format!("/admin/keys/{id}")).await.status(), 204);
    assert_eq!(app.listed_key(id).await["revokedAt"], key["revokedAt"]);
    assert_error(get_as(&app, &secret, "/pets").await, 401, "unauthorized").await;

    // The last use was saved too: a restart still shows it, and the key stays revoked.
    let app = app.restart().await;
    let after = app.listed_key(id).await;
    assert_eq!(after["lastUsedAt"], key["lastUsedAt"], "{after}");
    assert_eq!(after["revokedAt"], key["revokedAt"]);
    assert_error(get_as(&app, &secret, "/pets").await, 401, "unauthorized").await;
}

#[tokio::test]
async fn unknown_key_ids_are_404() {
    let app = TestApp::spawn().await;
    assert_error(
        patch(&app, 999_999, json!({ "name": "x" })).await,
        404,
        "not_found",
    )
    .await;
    assert_error(app.delete("/admin/keys/999999").await, 404, "not_found").await;
    assert_error(app.delete("/admin/keys/999999/ban").await, 404, "not_found").await;
    assert_error(
        app.delete("/admin/keys/not-a-number").await,
        404,
        "not_found",
    )
    .await;
    assert_error(app.delete("/admin/keys/0").await, 404, "not_found").await;
}

#[tokio::test]
async fn keys_without_the_admin_role_get_403_on_every_admin_operation() {
    let app = TestApp::spawn().await;
    let (target, _) = app.key_with_id("pos", "free").await;
    for role in ["readonly", "pos", "staff"] {
        let (_, secret) = app.key_with_id(role, "pro").await;
        let calls = [
            (Method::GET, "/admin/keys".to_owned(), None),
            (
                Method::POST,
                "/admin/keys".to_owned(),
                Some(json!({ "name": "sneaky", "role": "admin", "plan": "free" })),
            ),
            (
                Method::PATCH,
                format!("/admin/keys/{target}"),
                Some(json!({ "role": "admin" })),
            ),
            (Method::DELETE, format!("/admin/keys/{target}"), None),
            (Method::DELETE, format!("/admin/keys/{target}/ban"), None),
        ];
        for (method, path, json) in calls {
            let mut req = app.request_as(&secret, method.clone(), &path);
            if let Some(json) = json {
                req = req.json(&json);
            }
            let res = req.send().await.unwrap();
            assert_eq!(res.status(), 403, "{role} {method} {path}");
            assert_eq!(header(&res, "x-stability"), "beta");
            assert_error(res, 403, "forbidden").await;
        }
    }
    let key = app.listed_key(target).await;
    assert_eq!(
        (&key["role"], &key["revokedAt"]),
        (&json!("pos"), &Value::Null),
        "nothing changed"
    );
    assert_error(
        app.get_without_key("/admin/keys").await,
        401,
        "unauthorized",
    )
    .await;
}
