//! Every error code of the contract's table that a request can provoke, each in the
//! Error shape `{code, message, status}`. (`rate_limited` and `temporarily_banned` are
//! covered by the rate-limit tests; `conflict` by the concurrent idempotent repeat.)

use reqwest::Method;
use serde_json::json;

use crate::support::{assert_error, assert_error_saying, body, header, TestApp};

#[tokio::test]
async fn malformed_json_is_bad_request() {
    let app = TestApp::spawn().await;
    let res = app
        .send_raw(
            Method::POST,
            "/categories",
            Some("application/json"),
            r#"{"name": "Dogs""#,
        )
        .await;
    assert_error_saying(res, 400, "bad_request", "JSON").await;
}

#[tokio::test]
async fn a_body_that_is_not_an_object_is_bad_request() {
    let app = TestApp::spawn().await;
    for raw in ["[]", "\"Dogs\"", "42", "null"] {
        let res = app
            .send_raw(Method::POST, "/categories", Some("application/json"), raw)
            .await;
        assert_error(res, 400, "bad_request").await;
    }
}

#[tokio::test]
async fn a_wrong_json_type_is_bad_request_naming_the_field() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let res = app
        .post("/pets", json!({ "name": "Rex", "categoryId": "one" }))
        .await;
    assert_error_saying(res, 400, "bad_request", "categoryId").await;
    let res = app
        .post("/pets", json!({ "name": 7, "categoryId": cat }))
        .await;
    assert_error_saying(res, 400, "bad_request", "name").await;
}

#[tokio::test]
async fn an_unknown_field_is_bad_request_naming_it() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let res = app
        .post(
            "/pets",
            json!({ "name": "Rex", "categoryId": cat, "colour": "brown" }),
        )
        .await;
    assert_error_saying(res, 400, "bad_request", "colour").await;
    assert_eq!(app.get_json("/pets").await, json!([]));
}

#[tokio::test]
async fn a_bad_query_parameter_is_bad_request() {
    let app = TestApp::spawn().await;
    for path in [
        "/pets?status=lost",
        "/pets?sort=age",
        "/pets?limit=x",
        "/store/orders?complete=yes",
    ] {
        assert_error(app.get(path).await, 400, "bad_request").await;
    }
}

#[tokio::test]
async fn a_request_without_a_key_is_unauthorized_with_the_error_shape() {
    let app = TestApp::spawn().await;
    let res = app.get_without_key("/categories").await;
    assert_error(res, 401, "unauthorized").await;
}

#[tokio::test]
async fn an_unknown_key_is_unauthorized_as_header_or_bearer() {
    let app = TestApp::spawn().await;
    let res = app
        .send_as("psk_not_a_real_key", Method::GET, "/pets")
        .await;
    assert_error(res, 401, "unauthorized").await;
    let res = app
        .client
        .get(app.url("/pets"))
        .bearer_auth("psk_not_a_real_key")
        .send()
        .await
        .unwrap();
    assert_error(res, 401, "unauthorized").await;
    let res = app
        .client
        .get(app.url("/pets"))
        .header(
            "Authorization",
            format!("Basic {}", crate::support::ADMIN_KEY),
        )
        .send()
        .await
        .unwrap();
    assert_error(res, 401, "unauthorized").await;
}

#[tokio::test]
async fn a_revoked_key_is_unauthorized() {
    let app = TestApp::spawn().await;
    let (id, secret) = app.key_with_id("staff", "business").await;
    let res = app.send_as(&secret, Method::GET, "/pets").await;
    assert_eq!(res.status(), 200);
    assert_eq!(app.delete(&format!("/admin/keys/{id}")).await.status(), 204);
    let res = app.send_as(&secret, Method::GET, "/pets").await;
    assert_error(res, 401, "unauthorized").await;
    let keys = app.get_json("/admin/keys").await;
    let revoked = keys
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == id)
        .unwrap();
    assert!(revoked["revokedAt"].is_string(), "{revoked}");
}

#[tokio::test]
async fn a_readonly_key_creating_a_pet_is_forbidden() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let readonly = app.key("readonly", "business").await;
    let res = app
        .request_as(&readonly, Method::POST, "/pets")
        .json(&json!({ "name": "Rex", "categoryId": cat }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    assert_eq!(app.get_json("/pets").await, json!([]));
}

#[tokio::test]
async fn a_pos_key_setting_stock_is_forbidden() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 3).await;
    let pos = app.key("pos", "business").await;
    let res = app
        .request_as(&pos, Method::PUT, &format!("/store/inventory/{rex}"))
        .json(&json!({ "quantity": 100 }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    assert_eq!(app.stock(rex).await, 3);
}

#[tokio::test]
async fn a_staff_key_on_admin_keys_is_forbidden() {
    let app = TestApp::spawn().await;
    let staff = app.key("staff", "business").await;
    let res = app.send_as(&staff, Method::GET, "/admin/keys").await;
    assert_error(res, 403, "forbidden").await;
    let res = app
        .request_as(&staff, Method::POST, "/admin/keys")
        .json(&json!({ "name": "mine", "role": "admin", "plan": "free" }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
}

#[tokio::test]
async fn a_missing_record_is_not_found() {
    let app = TestApp::spawn().await;
    for path in [
        "/pets/4242",
        "/categories/4242",
        "/store/orders/4242",
        "/store/inventory/4242",
    ] {
        let message = assert_error(app.get(path).await, 404, "not_found").await;
        assert!(message.contains("4242"), "{path}: {message}");
    }
}

#[tokio::test]
async fn an_unknown_route_is_not_found() {
    let app = TestApp::spawn().await;
    for path in ["/nope", "/pets/1/toys", "/store", "/store/orders/1/items"] {
        assert_error(app.get(path).await, 404, "not_found").await;
    }
}

#[tokio::test]
async fn ids_that_are_not_positive_int64_numbers_are_not_found() {
    let app = TestApp::spawn().await;
    let ids = [
        "abc",
        "-1",
        "0",
        "1.5",
        "99999999999999999999",
        "9223372036854775808",
        "%20",
        "1e3",
    ];
    for id in ids {
        for base in ["/pets", "/categories", "/store/orders", "/store/inventory"] {
            let path = format!("{base}/{id}");
            let res = app.get(&path).await;
            assert_error(res, 404, "not_found").await;
        }
        let res = app
            .send_json(
                Method::PUT,
                &format!("/pets/{id}"),
                json!({ "name": "X", "categoryId": 1 }),
            )
            .await;
        assert_error(res, 404, "not_found").await;
        assert_error(
            app.delete(&format!("/store/orders/{id}")).await,
            404,
            "not_found",
        )
        .await;
    }
    assert_error(app.get("/pets/9223372036854775807").await, 404, "not_found").await;
}

#[tokio::test]
async fn another_method_on_a_known_path_is_method_not_allowed() {
    let app = TestApp::spawn().await;
    for (method, path) in [
        (Method::DELETE, "/pets"),
        (Method::POST, "/pets/1"),
        (Method::PUT, "/store/orders/1"),
        (Method::POST, "/store/inventory"),
        (Method::PUT, "/categories"),
    ] {
        let res = app.request(method.clone(), path).send().await.unwrap();
        assert!(
            res.headers().contains_key("allow"),
            "{method} {path} has Allow"
        );
        assert_error(res, 405, "method_not_allowed").await;
    }
}

#[tokio::test]
async fn state_clashes_answer_409_with_their_own_codes() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 1).await;

    let res = app
        .post("/store/orders", json!({ "petId": rex, "quantity": 2 }))
        .await;
    assert_error(res, 409, "insufficient_stock").await;
    let order = app.order(rex, 1).await;
    let res = app
        .post("/store/orders", json!({ "petId": rex, "quantity": 1 }))
        .await;
    assert_error(res, 409, "pet_not_available").await;
    assert_error(
        app.delete(&format!("/pets/{rex}")).await,
        409,
        "pet_has_open_orders",
    )
    .await;
    assert_error(
        app.delete(&format!("/categories/{cat}")).await,
        409,
        "category_in_use",
    )
    .await;
    let res = app.post("/categories", json!({ "name": "DOGS" })).await;
    assert_error(res, 409, "duplicate_name").await;
    let path = format!("/store/orders/{}", order["id"]);
    assert_eq!(
        app.send_json(Method::PATCH, &path, json!({ "complete": true }))
            .await
            .status(),
        200
    );
    let res = app
        .send_json(Method::PATCH, &path, json!({ "complete": false }))
        .await;
    assert_error(res, 409, "order_already_complete").await;
    assert_error(app.delete(&path).await, 409, "order_already_complete").await;
}

#[tokio::test]
async fn the_retired_single_pet_read_is_gone() {
    let sunset = chrono::Utc::now() - chrono::Duration::days(1);
    let app = TestApp::builder()
        .args(|a| a.sunset = Some(sunset))
        .spawn()
        .await;
    assert_error(app.get("/pets/1").await, 410, "gone").await;
}

#[tokio::test]
async fn a_stale_if_match_is_precondition_failed() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let res = app
        .request(Method::PATCH, &format!("/categories/{cat}"))
        .header("If-Match", "\"0000\"")
        .json(&json!({ "name": "Cats" }))
        .send()
        .await
        .unwrap();
    assert_error(res, 412, "precondition_failed").await;
    assert_eq!(
        app.get_json(&format!("/categories/{cat}")).await["name"],
        "Dogs"
    );
}

#[tokio::test]
async fn a_body_over_64_kib_is_payload_too_large() {
    let app = TestApp::spawn().await;
    let big = format!(r#"{{"name": "{}"}}"#, "x".repeat(70 * 1024));
    let res = app
        .send_raw(Method::POST, "/categories", Some("application/json"), big)
        .await;
    assert_error(res, 413, "payload_too_large").await;
    assert_eq!(app.get_json("/categories").await, json!([]));
}

#[tokio::test]
async fn a_body_that_is_not_json_is_unsupported_media_type() {
    let app = TestApp::spawn().await;
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let res = app
            .send_raw(
                Method::POST,
                "/categories",
                content_type,
                r#"{"name": "Dogs"}"#,
            )
            .await;
        assert_error(res, 415, "unsupported_media_type").await;
    }
    assert_eq!(app.get_json("/categories").await, json!([]));
}

#[tokio::test]
async fn a_value_out_of_bounds_or_missing_is_validation_failed_naming_the_field() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    for (body, field) in [
        (json!({ "categoryId": cat }), "name"),
        (json!({ "name": "   ", "categoryId": cat }), "name"),
        (
            json!({ "name": "x".repeat(101), "categoryId": cat }),
            "name",
        ),
        (
            json!({ "name": "Rex", "categoryId": cat, "status": "lost" }),
            "status",
        ),
        (json!({ "name": "Rex", "categoryId": 0 }), "categoryId"),
    ] {
        let message = assert_error(
            app.post("/pets", body.clone()).await,
            422,
            "validation_failed",
        )
        .await;
        assert!(message.contains(field), "{body}: {message}");
    }
    let res = app
        .post(
            "/categories",
            json!({ "name": "Fish", "description": "d".repeat(1001) }),
        )
        .await;
    assert_error_saying(res, 422, "validation_failed", "description").await;
    let res = app
        .post(
            "/pets",
            json!({ "name": "é".repeat(100), "categoryId": cat }),
        )
        .await;
    assert_eq!(res.status(), 201, "100 characters is within bounds");
}

#[tokio::test]
async fn a_pet_in_a_missing_category_is_unknown_category() {
    let app = TestApp::spawn().await;
    let res = app
        .post("/pets", json!({ "name": "Rex", "categoryId": 777 }))
        .await;
    assert_error_saying(res, 422, "unknown_category", "777").await;
}

#[tokio::test]
async fn an_order_of_a_missing_pet_is_unknown_pet() {
    let app = TestApp::spawn().await;
    let res = app
        .post("/store/orders", json!({ "petId": 777, "quantity": 1 }))
        .await;
    assert_error(res, 422, "unknown_pet").await;
}

#[tokio::test]
async fn an_idempotency_key_reused_with_another_body_is_refused() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", cat, 5).await;
    let send = |quantity: i64| {
        app.request(Method::POST, "/store/orders")
            .header("Idempotency-Key", "order-1")
            .json(&json!({ "petId": rex, "quantity": quantity }))
            .send()
    };
    assert_eq!(send(1).await.unwrap().status(), 201);
    assert_error(send(2).await.unwrap(), 422, "idempotency_key_reused").await;
    assert_eq!(app.stock(rex).await, 4);
}

#[tokio::test]
async fn error_answers_carry_the_rate_limit_headers() {
    let app = TestApp::spawn().await;
    let res = app.get("/pets/4242").await;
    for name in [
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
    ] {
        assert!(!header(&res, name).is_empty(), "{name}");
    }
    assert_eq!(body(res).await["code"], "not_found");
}

/// Reads one HTTP/1.1 answer with a `Content-Length` from `stream`: its status and body.
async fn read_answer(stream: &mut tokio::net::TcpStream) -> (u16, String) {
    use tokio::io::AsyncReadExt;
    let mut data = Vec::new();
    let mut buf = [0u8; 8192];
    let head_end = loop {
        if let Some(at) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let n = stream
            .read(&mut buf)
            .await
            .expect("the answer, not a reset");
        assert!(n > 0, "connection closed before the answer");
        data.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&data[..head_end]).to_ascii_lowercase();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map_or(0, |v| v.trim().parse().unwrap());
    while data.len() < head_end + length {
        let n = stream.read(&mut buf).await.expect("the answer's body");
        assert!(n > 0, "connection closed inside the answer");
        data.extend_from_slice(&buf[..n]);
    }
    (
        status,
        String::from_utf8_lossy(&data[head_end..head_end + length]).into_owned(),
    )
}

#[tokio::test]
async fn a_request_refused_with_its_large_body_unread_leaves_the_connection_usable() {
    use tokio::io::AsyncWriteExt;
    let app = TestApp::spawn().await;
    let readonly = app.key("readonly", "business").await;
    let admin = crate::support::ADMIN_KEY;
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    let cases = [
        (
            "POST",
            "/categories",
            "application/json",
            admin,
            413,
            1024 * 1024,
        ),
        ("POST", "/categories", "text/plain", admin, 415, 512 * 1024),
        (
            "POST",
            "/categories",
            "application/json",
            readonly.as_str(),
            403,
            512 * 1024,
        ),
        (
            "PUT",
            "/pets/abc",
            "application/json",
            admin,
            404,
            512 * 1024,
        ),
        (
            "POST",
            "/categories",
            "application/json",
            "psk_unknown",
            401,
            256 * 1024,
        ),
    ];
    for (method, path, content_type, key, status, size) in cases {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: test\r\nX-API-Key: {key}\r\nContent-Type: {content_type}\r\nContent-Length: {size}\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(&vec![b' '; size]).await.unwrap();
        let (answered, text) = read_answer(&mut stream).await;
        assert_eq!(answered, status, "{method} {path}: {text}");
        // The same connection serves the next request.
        stream
            .write_all(b"GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
            .await
            .unwrap();
        let (answered, _) = read_answer(&mut stream).await;
        assert_eq!(answered, 200, "after {method} {path}");
    }
}
