//! Roles: readonly < pos < staff < admin, each allowed exactly the operations of its
//! level and below. A key works the same as `X-API-Key` or `Authorization: Bearer`.

use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, body, TestApp};

const ROLES: [&str; 4] = ["readonly", "pos", "staff", "admin"];

/// Every operation with the least role that may call it, from the contract's table. Ids name
/// no record and bodies are empty, so an allowed call is refused for its content (404/422),
/// never for its role. The event stream is left out: an allowed call never ends.
fn operations() -> Vec<(Method, String, &'static str)> {
    petstore::OPERATIONS
        .iter()
        .filter(|op| op.path != "/events")
        .filter_map(|op| {
            let path = op
                .path
                .replace("{petId}", "999")
                .replace("{categoryId}", "999")
                .replace("{orderId}", "999")
                .replace("{keyId}", "999");
            Some((
                Method::from_bytes(op.method.as_bytes()).ok()?,
                path,
                op.role?,
            ))
        })
        .collect()
}

fn rank(role: &str) -> usize {
    ROLES.iter().position(|r| *r == role).unwrap()
}

#[tokio::test]
async fn each_role_may_call_exactly_the_operations_of_its_level_and_below() {
    let app = TestApp::spawn().await;
    for role in ROLES {
        let secret = app.key(role, "business").await;
        for (method, path, least) in operations() {
            // Unpairing gives the caller's own key back, so it gets a key of its own; signing
            // out (`DELETE /session`) leaves a key that is not a session as it was.
            let unpairing = method == Method::DELETE && path == "/pair";
            let key = if unpairing {
                app.key(role, "business").await
            } else {
                secret.clone()
            };
            let mut req = app.request_as(&key, method.clone(), &path);
            if matches!(method, Method::POST | Method::PUT | Method::PATCH) {
                req = req.json(&json!({}));
            }
            let res = req.send().await.unwrap();
            if rank(role) >= rank(least) {
                let status = res.status().as_u16();
                assert!(
                    ![401, 403, 405].contains(&status) && status < 500,
                    "{role} {method} {path}: {status}"
                );
            } else {
                let message = assert_error(res, 403, "forbidden").await;
                assert!(message.contains(least), "{role} {method} {path}: {message}");
            }
        }
    }
}

#[tokio::test]
async fn every_operation_that_needs_a_key_refuses_a_request_without_one_or_with_a_wrong_one() {
    // Requests without a valid key count against their address's Free quota (every loopback
    // address is one client): with limits off the quota never answers before the key check.
    let app = TestApp::builder()
        .args(|a| a.rate_limits = petstore::RateLimits::Off)
        .spawn()
        .await;
    let mut operations = operations();
    operations.push((Method::GET, "/events".to_owned(), "readonly"));
    for (method, path, _) in operations {
        for key in [
            None,
            Some("psk_0000000000000000000000000000000000000000000000000000000000000000"),
        ] {
            let mut req = app.client.request(method.clone(), app.url(&path));
            if let Some(key) = key {
                req = req.header("X-API-Key", key);
            }
            if matches!(method, Method::POST | Method::PUT | Method::PATCH) {
                req = req.json(&json!({}));
            }
            let res = req.send().await.unwrap();
            let status = res.status().as_u16();
            assert_eq!(
                status,
                401,
                "{method} {path} with key {key:?}: {}",
                body(res).await
            );
        }
    }
}

#[tokio::test]
async fn a_readonly_key_reads_everything_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 3).await;
    let order = app.order(rex, 1).await;
    let reader = app.key("readonly", "business").await;
    for path in [
        "/pets".to_owned(),
        format!("/pets/{rex}"),
        format!("/categories/{cat}"),
        format!("/store/orders/{}", order["id"]),
        format!("/store/inventory/{rex}"),
        format!("/store/inventory/{rex}/adjustments"),
    ] {
        let res = app.send_as(&reader, Method::GET, &path).await;
        assert_eq!(res.status(), 200, "{path}");
    }
    let res = app
        .request_as(&reader, Method::POST, "/store/orders")
        .json(&json!({ "petId": rex, "quantity": 1 }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    let res = app
        .request_as(&reader, Method::PATCH, &format!("/pets/{rex}"))
        .json(&json!({ "name": "Hacked" }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    assert_eq!(app.stock(rex).await, 2);
    assert_eq!(app.get_json(&format!("/pets/{rex}")).await["name"], "Rex");
}

#[tokio::test]
async fn a_pos_key_places_completes_and_cancels_orders_but_cannot_create_pets() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let till = app.key("pos", "business").await;
    let place = || async {
        let res = app
            .request_as(&till, Method::POST, "/store/orders")
            .json(&json!({ "petId": rex, "quantity": 1 }))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 201);
        body(res).await
    };
    let sold = place().await;
    let res = app
        .request_as(
            &till,
            Method::PATCH,
            &format!("/store/orders/{}", sold["id"]),
        )
        .json(&json!({ "complete": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let returned = place().await;
    let res = app
        .send_as(
            &till,
            Method::DELETE,
            &format!("/store/orders/{}", returned["id"]),
        )
        .await;
    assert_eq!(res.status(), 204);
    let history = app
        .get_json(&format!("/store/inventory/{rex}/adjustments"))
        .await;
    assert_eq!(history[0]["source"], "cancel");
    assert_eq!(history[0]["keyName"], "pos business");

    let res = app
        .request_as(&till, Method::POST, "/pets")
        .json(&json!({ "name": "Fake", "categoryId": cat }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    let res = app
        .request_as(
            &till,
            Method::POST,
            &format!("/store/inventory/{rex}/adjustments"),
        )
        .json(&json!({ "delta": 10 }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    assert_eq!(app.get_json("/pets").await.as_array().unwrap().len(), 1);
    assert_eq!(app.stock(rex).await, 4);
}

#[tokio::test]
async fn a_staff_key_runs_the_shop_and_may_order_but_not_manage_keys() {
    let app = TestApp::spawn().await;
    let staff = app.key("staff", "business").await;
    let send = |method: Method, path: String, json: Value| {
        let req = app.request_as(&staff, method, &path).json(&json);
        async move { req.send().await.unwrap() }
    };
    let res = send(
        Method::POST,
        "/categories".into(),
        json!({ "name": "Dogs" }),
    )
    .await;
    assert_eq!(res.status(), 201);
    let cat = body(res).await["id"].as_i64().unwrap();
    let res = send(
        Method::POST,
        "/pets".into(),
        json!({ "name": "Rex", "categoryId": cat }),
    )
    .await;
    assert_eq!(res.status(), 201);
    let rex = body(res).await["id"].as_i64().unwrap();
    let res = send(
        Method::PUT,
        format!("/store/inventory/{rex}"),
        json!({ "quantity": 4 }),
    )
    .await;
    assert_eq!(res.status(), 200);
    let res = send(
        Method::POST,
        format!("/store/inventory/{rex}/adjustments"),
        json!({ "delta": 1 }),
    )
    .await;
    assert_eq!(res.status(), 200);
    let res = send(
        Method::POST,
        "/store/orders".into(),
        json!({ "petId": rex, "quantity": 5 }),
    )
    .await;
    assert_eq!(res.status(), 201);
    assert_eq!(
        app.get_json(&format!("/pets/{rex}")).await["status"],
        "pending"
    );

    let res = send(
        Method::POST,
        "/admin/keys".into(),
        json!({ "name": "x", "role": "pos", "plan": "free" }),
    )
    .await;
    assert_error(res, 403, "forbidden").await;
    assert_eq!(
        app.get_json("/admin/keys").await.as_array().unwrap().len(),
        2
    );
}

#[tokio::test]
async fn an_admin_key_manages_keys_and_a_new_key_works_at_once() {
    let app = TestApp::spawn().await;
    let (id, secret) = app.key_with_id("readonly", "pro").await;
    let res = app
        .send_json(
            Method::PATCH,
            &format!("/admin/keys/{id}"),
            json!({ "role": "staff" }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let key = body(res).await;
    assert_eq!(key["role"], "staff");
    assert!(
        key.get("secret").is_none(),
        "no secret outside creation: {key}"
    );
    let res = app
        .request_as(&secret, Method::POST, "/categories")
        .json(&json!({ "name": "Promoted" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "the new role applies at once");
    let keys = app.get_json("/admin/keys").await;
    assert!(keys
        .as_array()
        .unwrap()
        .iter()
        .all(|k| k.get("secret").is_none()));
}

#[tokio::test]
async fn bearer_authorization_works_like_x_api_key() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let till = app.key("pos", "business").await;
    let res = app
        .client
        .post(app.url("/store/orders"))
        .bearer_auth(&till)
        .json(&json!({ "petId": rex, "quantity": 1 }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let res = app
        .client
        .post(app.url("/pets"))
        .header("Authorization", format!("bearer {till}"))
        .json(&json!({ "name": "Fake", "categoryId": cat }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    let res = app
        .client
        .get(app.url("/admin/keys"))
        .bearer_auth(crate::support::ADMIN_KEY)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn an_authorization_header_that_is_not_a_bearer_token_is_refused_even_beside_a_valid_x_api_key(
) {
    let app = TestApp::spawn().await;
    let get_pets_with = |authorization: &str| {
        app.request_as(crate::support::ADMIN_KEY, Method::GET, "/pets")
            .header("Authorization", authorization)
            .send()
    };
    for unreadable in ["Basic dXNlcjpwYXNz", "Bearer", "Bearer    ", "garbage"] {
        let res = get_pets_with(unreadable).await.unwrap();
        assert_error(res, 401, "unauthorized").await;
    }
    let res = get_pets_with("Bearer some-other-token").await.unwrap();
    assert_eq!(
        res.status(),
        200,
        "a readable bearer beside X-API-Key: X-API-Key decides"
    );
}
