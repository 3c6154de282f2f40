//! Hostile input: well over a thousand malformed, oversized, mistyped and odd requests.
//! None may get a 5xx or a dropped connection, every refusal has the Error shape, and
//! afterwards the data written before is exactly as it was and the SQLite file is sound.

use std::sync::Arc;

use reqwest::Method;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{body, sqlite_only, TestApp, ADMIN_KEY};

/// One hostile request.
#[derive(Clone)]
struct Bad {
    method: Method,
    path: String,
    content_type: Option<&'static str>,
    body: Vec<u8>,
    /// Extra headers as raw bytes (they may be invalid UTF-8).
    headers: Vec<(&'static str, Vec<u8>)>,
}

impl Bad {
    fn new(method: Method, path: impl Into<String>) -> Self {
        Self {
            method,
            path: path.into(),
            content_type: None,
            body: Vec::new(),
            headers: Vec::new(),
        }
    }

    fn json(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.content_type = Some("application/json");
        self.body = body.into();
        self
    }

    fn typed(mut self, content_type: Option<&'static str>, body: impl Into<Vec<u8>>) -> Self {
        self.content_type = content_type;
        self.body = body.into();
        self
    }
}

/// Bodies that no write operation may accept: not JSON, not an object, wrong types,
/// unknown fields, impossible numbers, deep nesting, invalid UTF-8.
fn bad_bodies() -> Vec<Vec<u8>> {
    let mut bodies: Vec<Vec<u8>> = [
        "",
        " ",
        "{",
        "}",
        "{}}",
        "[",
        "]",
        "{\"name\":}",
        "{\"name\": \"a\",}",
        "{'name': 'a'}",
        "{name: \"a\"}",
        "{\"name\" \"a\"}",
        "{\"name\": \"a\"} trailing",
        "{\"name\": \"a\"}{\"name\": \"b\"}",
        "nul",
        "null",
        "true",
        "0",
        "-1",
        "\"just a string\"",
        "[]",
        "[{\"name\": \"a\"}]",
        "NaN",
        "{\"a\": NaN}",
        "{\"a\": Infinity}",
        "{\"a\": 1e999}",
        "{\"name\": \"\\ud800\"}",
        "{\"name\": \"\\x41\"}",
        "{\"name\": \"unterminated}",
        "\u{feff}{\"name\": \"bom\"}",
        "{\"name\": \"a\" /* comment */}",
        "{\"\": 1}",
        "{\"__proto__\": {}}",
        "{\"name\": 1, \"categoryId\": 1}",
        "{\"name\": [], \"categoryId\": 1}",
        "{\"name\": {}, \"categoryId\": 1}",
        "{\"name\": true}",
        "{\"categoryId\": \"1\", \"name\": \"a\"}",
        "{\"categoryId\": 1.5, \"name\": \"a\"}",
        "{\"categoryId\": true, \"name\": \"a\"}",
        "{\"categoryId\": 99999999999999999999, \"name\": \"a\"}",
        "{\"categoryId\": -9223372036854775809, \"name\": \"a\"}",
        "{\"petId\": \"1\", \"quantity\": 1}",
        "{\"petId\": 1, \"quantity\": 1.0}",
        "{\"petId\": 1, \"quantity\": \"1\"}",
        "{\"petId\": 1, \"quantity\": 1e3}",
        "{\"petId\": 1, \"quantity\": 18446744073709551616}",
        "{\"petId\": [1], \"quantity\": 1}",
        "{\"quantity\": \"ten\"}",
        "{\"quantity\": -0.5}",
        "{\"quantity\": {}}",
        "{\"delta\": \"1\"}",
        "{\"delta\": 1.5}",
        "{\"delta\": 9223372036854775808}",
        "{\"complete\": \"true\"}",
        "{\"complete\": 1}",
        "{\"status\": 1}",
        "{\"status\": [\"sold\"]}",
        "{\"role\": 1, \"name\": \"k\", \"plan\": \"free\"}",
        "{\"perMinute\": \"many\"}",
        "{\"id\": 1}",
        "{\"unknown\": 1}",
        "{\"Name\": \"case matters\"}",
        "{\"name\": \"a\", \"extra\": null}",
        "{\"name\": \"a\", \"name\": \"b\", \"zzz\": 0}",
        "{\"reason\": 5}",
        "{\"shipDate\": 20260101}",
        "{\"description\": []}",
        "{\"\\u0000\": 1}",
        "\0",
        "{\"name\": \"a\"}\0",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    bodies.push("[".repeat(100_000).into_bytes());
    bodies.push(format!("{}1{}", "[".repeat(2000), "]".repeat(2000)).into_bytes());
    bodies.push(format!("{}{}", "{\"a\":".repeat(5000), "}".repeat(5000)).into_bytes());
    bodies.push(format!("{{\"name\": {}\"x\"{}}}", "[".repeat(200), "]".repeat(200)).into_bytes());
    bodies.push(b"{\"name\": \"\xff\xfe\xfd\", \"categoryId\": 1}".to_vec());
    bodies.push(b"{\"name\": \"ok\", \"categoryId\": 1, \"\xc3\x28\": 1}".to_vec());
    bodies.push(b"\xff\xff\xff\xff".to_vec());
    bodies.push(b"{\"name\": \"\xed\xa0\x80\"}".to_vec());
    bodies.push(b"\xef\xbb\xbf{}".to_vec());
    bodies.push(vec![0u8; 4096]);
    bodies.push(format!("{{\"unknown\": \"{}\"}}", "x".repeat(60 * 1024)).into_bytes());
    bodies.push(format!("{{\"name\": \"{}\"}}", "y".repeat(1024 * 1024)).into_bytes());
    bodies.push(vec![b' '; 70 * 1024]);
    bodies
}

/// Path ids that name no record.
fn bad_ids() -> Vec<&'static str> {
    vec![
        "0",
        "-1",
        "-0",
        "1.5",
        "1e3",
        "0x10",
        "99999999999999999999",
        "9223372036854775808",
        "-9223372036854775808",
        "9223372036854775807",
        "abc",
        "%00",
        "%FF%FE",
        "%27%20OR%201=1--",
        "1;DROP%20TABLE%20pets",
        "..%2F..%2Fetc",
        "%E2%80%AE1",
        "NaN",
        "",
    ]
}

fn hostile_requests(rex: i64, cat: i64, order: i64, key: i64) -> Vec<Bad> {
    let writes: Vec<(Method, String)> = vec![
        (Method::POST, "/pets".into()),
        (Method::PUT, format!("/pets/{rex}")),
        (Method::PATCH, format!("/pets/{rex}")),
        (Method::POST, "/categories".into()),
        (Method::PUT, format!("/categories/{cat}")),
        (Method::PATCH, format!("/categories/{cat}")),
        (Method::POST, "/store/orders".into()),
        (Method::PATCH, format!("/store/orders/{order}")),
        (Method::PUT, format!("/store/inventory/{rex}")),
        (Method::POST, format!("/store/inventory/{rex}/adjustments")),
        (Method::POST, "/admin/keys".into()),
        (Method::PATCH, format!("/admin/keys/{key}")),
    ];
    let mut all = Vec::new();
    for (method, path) in &writes {
        for body in bad_bodies() {
            all.push(Bad::new(method.clone(), path.clone()).json(body));
        }
        // A body that would be fine as JSON, sent as something else.
        let plausible = br#"{"name": "Nope", "categoryId": 1, "quantity": 1}"#.to_vec();
        for content_type in [
            None,
            Some("text/plain"),
            Some("text/json"),
            Some("application/xml"),
            Some("application/x-www-form-urlencoded"),
            Some("multipart/form-data; boundary=x"),
            Some("application/jsonx"),
            Some("application/octet-stream"),
            Some("*/*"),
            Some(""),
            Some("json"),
            Some("application/"),
        ] {
            all.push(Bad::new(method.clone(), path.clone()).typed(content_type, plausible.clone()));
        }
        // Valid JSON but invalid content: SQL-ish and impossible values where ids belong.
        for raw in [
            r#"{"name": "", "categoryId": 0}"#,
            r#"{"petId": 0, "quantity": 0}"#,
            r#"{"petId": -1, "quantity": 1}"#,
            r#"{"petId": 9223372036854775807, "quantity": 0}"#,
            r#"{"categoryId": -9223372036854775808}"#,
            r#"{"quantity": -9223372036854775808}"#,
            r#"{"delta": 0}"#,
            r#"{"delta": -9223372036854775808}"#,
            r#"{"status": "available'; DROP TABLE pets;--"}"#,
            r#"{"shipDate": "2026-13-45T99:99:99Z"}"#,
            r#"{"name": "   ", "role": "root", "plan": "free"}"#,
        ] {
            all.push(Bad::new(method.clone(), path.clone()).json(raw));
        }
    }
    let bases = [
        "/pets",
        "/categories",
        "/store/orders",
        "/store/inventory",
        "/admin/keys",
    ];
    for id in bad_ids() {
        for base in bases {
            for method in [Method::GET, Method::PUT, Method::PATCH, Method::DELETE] {
                let mut bad = Bad::new(method.clone(), format!("{base}/{id}"));
                if method != Method::GET && method != Method::DELETE {
                    bad = bad.json(r#"{"name": "x", "categoryId": 1}"#);
                }
                all.push(bad);
            }
        }
        all.push(Bad::new(
            Method::GET,
            format!("/store/inventory/{id}/adjustments"),
        ));
        all.push(
            Bad::new(Method::POST, format!("/store/inventory/{id}/adjustments"))
                .json(r#"{"delta": 1}"#),
        );
        all.push(Bad::new(Method::DELETE, format!("/admin/keys/{id}/ban")));
    }
    for query in [
        "limit=9223372036854775807",
        "limit=-9223372036854775808",
        "limit=1e2",
        "limit=%00",
        "offset=99999999999999999999",
        "offset=-0.0",
        "status=available%00",
        "status=%FF%FE",
        "status=available,,sold",
        "status='%20OR%201=1--",
        "sort=id;DROP%20TABLE%20pets",
        "sort=",
        "ids=9223372036854775808",
        "ids=1,2,x",
        "ids=%FF",
        "categoryId=0",
        "categoryId=-1",
        "categoryId=1%20OR%201=1",
        "petId=abc",
        "complete=1",
        "below=-5",
        "below=1e9",
        "%FF%FE=1",
        "limit",
        "&&&=&&",
        "q=1&q=2",
        "unknown=1",
        "limit=5&limit=5",
    ] {
        for base in ["/pets", "/categories", "/store/orders", "/store/inventory"] {
            all.push(Bad::new(Method::GET, format!("{base}?{query}")));
        }
    }
    // Headers that are wrong but must not hurt: bad If-Match, Idempotency-Key, keys.
    for (name, value) in [
        ("if-match", b"\xff\xfe".to_vec()),
        ("if-match", b"\"\"".to_vec()),
        ("if-match", b"W/".to_vec()),
        ("idempotency-key", b"\xff".to_vec()),
        ("idempotency-key", b"\"\"".to_vec()),
        ("idempotency-key", "k".repeat(300).into_bytes()),
        ("authorization", b"Bearer".to_vec()),
        ("x-api-key", b"\xc3\x28".to_vec()),
    ] {
        let bad = Bad {
            headers: vec![(name, value)],
            ..Bad::new(Method::PATCH, format!("/pets/{rex}")).json(r#"{"name": 5}"#)
        };
        all.push(bad.clone());
        all.push(Bad {
            path: "/store/orders".into(),
            method: Method::POST,
            ..bad.clone()
        });
        all.push(Bad {
            path: format!("/store/inventory/{rex}/adjustments"),
            method: Method::POST,
            ..bad
        });
    }
    all
}

/// The data a hostile request must not change.
async fn snapshot(app: &TestApp, pets: &[i64]) -> Vec<Value> {
    let mut all = Vec::new();
    for path in [
        "/pets?limit=500",
        "/categories?limit=500",
        "/store/orders?limit=500",
        "/store/inventory?limit=500",
    ] {
        all.push(app.get_json(path).await);
    }
    for pet in pets {
        all.push(
            app.get_json(&format!("/store/inventory/{pet}/adjustments?limit=500"))
                .await,
        );
    }
    let mut keys = app.get_json("/admin/keys").await;
    for key in keys.as_array_mut().unwrap() {
        let key = key.as_object_mut().unwrap();
        key.remove("usage");
        key.remove("lastUsedAt");
    }
    all.push(keys);
    all
}

/// Sends raw bytes over TCP and returns the status line's code (the server must answer).
async fn raw_status(app: &TestApp, request: &[u8]) -> u16 {
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await.unwrap();
        assert!(
            n > 0,
            "connection closed without an answer to {:?}",
            String::from_utf8_lossy(request)
        );
        answer.extend_from_slice(&buf[..n]);
    }
    let line = String::from_utf8_lossy(&answer);
    line.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap()
}

const SQL_NAMES: [&str; 10] = [
    "Robert'); DROP TABLE pets;--",
    "' OR '1'='1",
    "\"; DELETE FROM categories; --",
    "1; UPDATE inventory SET quantity = 0",
    "%_\\ LIKE wildcards",
    "x' UNION SELECT secret_hash FROM api_keys --",
    "<script>alert(1)</script>",
    "Ünïcödé 🐶 名前",
    "/* comment */ SELECT 1",
    "a\tb",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_hostile_requests_get_no_5xx_and_leave_earlier_data_intact() {
    let app = Arc::new(TestApp::spawn().await);

    // Earlier data, including SQL-looking text that must be stored and returned verbatim.
    let cat = app.category("Dogs").await;
    let mut pets = Vec::new();
    for (i, name) in SQL_NAMES.iter().enumerate() {
        let res = app
            .post("/categories", json!({ "name": name, "description": name }))
            .await;
        assert_eq!(res.status(), 201, "{name}");
        let category = body(res).await;
        assert_eq!(category["name"], *name);
        assert_eq!(category["description"], *name);
        let res = app
            .post(
                "/pets",
                json!({ "name": name, "categoryId": cat, "status": "available" }),
            )
            .await;
        assert_eq!(res.status(), 201, "{name}");
        let pet = body(res).await;
        assert_eq!(pet["name"], *name);
        let id = pet["id"].as_i64().unwrap();
        let res = app
            .send_json(
                Method::PUT,
                &format!("/store/inventory/{id}"),
                json!({ "quantity": 10 + i, "reason": name }),
            )
            .await;
        assert_eq!(res.status(), 200);
        pets.push(id);
    }
    let rex = pets[0];
    let order = app.order(rex, 2).await["id"].as_i64().unwrap();
    let (key, _) = app.key_with_id("pos", "free").await;
    for (name, id) in SQL_NAMES.iter().zip(&pets) {
        let found = app.get_json(&format!("/pets?ids={id}")).await;
        assert_eq!(found[0]["name"], *name, "returned verbatim");
        let history = app
            .get_json(&format!("/store/inventory/{id}/adjustments"))
            .await;
        assert_eq!(history.as_array().unwrap().last().unwrap()["reason"], *name);
    }
    let searched = app.get_json(&format!("/pets?q={}", "%25_%5C")).await;
    assert_eq!(
        searched.as_array().unwrap().len(),
        1,
        "wildcards match literally: {searched}"
    );
    assert_eq!(searched[0]["name"], SQL_NAMES[4]);
    let before = snapshot(&app, &pets).await;

    let requests = hostile_requests(rex, cat, order, key);
    assert!(requests.len() >= 1000, "only {} requests", requests.len());
    let chunks: Vec<Vec<Bad>> = requests
        .chunks(requests.len().div_ceil(8))
        .map(<[Bad]>::to_vec)
        .collect();
    let mut tasks = Vec::new();
    for chunk in chunks {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            let mut answered = 0;
            for bad in chunk {
                let mut req = app
                    .client
                    .request(bad.method.clone(), app.url(&bad.path))
                    .header("X-API-Key", ADMIN_KEY);
                if let Some(content_type) = bad.content_type {
                    req = req.header("Content-Type", content_type);
                }
                for (name, value) in &bad.headers {
                    req = req.header(
                        *name,
                        reqwest::header::HeaderValue::from_bytes(value).unwrap(),
                    );
                }
                if !bad.body.is_empty() {
                    req = req.body(bad.body.clone());
                }
                let what = format!("{} {} ({} bytes)", bad.method, bad.path, bad.body.len());
                let res = req
                    .send()
                    .await
                    .unwrap_or_else(|e| panic!("{what}: connection error {e}"));
                let status = res.status().as_u16();
                let text = res
                    .text()
                    .await
                    .unwrap_or_else(|e| panic!("{what}: body error {e}"));
                assert!(status < 500, "{what}: {status} {text}");
                if status >= 400 {
                    let error: Value = serde_json::from_str(&text)
                        .unwrap_or_else(|e| panic!("{what}: {status} not JSON ({e}): {text}"));
                    assert_eq!(error["status"], status, "{what}: {text}");
                    assert!(
                        error["code"].is_string() && error["message"].is_string(),
                        "{what}: {text}"
                    );
                }
                answered += 1;
            }
            answered
        }));
    }
    let mut answered = 0;
    for task in tasks {
        answered += task.await.unwrap();
    }
    assert!(answered >= 1000);

    // Invalid UTF-8 and other raw bytes where no HTTP client would put them.
    let raw: Vec<Vec<u8>> = vec![
        [b"GET /pets?q=".as_slice(), b"\xff\xfe\xfd", b" HTTP/1.1\r\nHost: x\r\nX-API-Key: ", ADMIN_KEY.as_bytes(), b"\r\n\r\n"].concat(),
        [b"GET /pets/".as_slice(), b"\xc3\x28", b" HTTP/1.1\r\nHost: x\r\nX-API-Key: ", ADMIN_KEY.as_bytes(), b"\r\n\r\n"].concat(),
        [b"GET /categories?q=%FF%FE%00 HTTP/1.1\r\nHost: x\r\nX-API-Key: ".as_slice(), ADMIN_KEY.as_bytes(), b"\r\n\r\n"].concat(),
        [b"GET /pets HTTP/1.1\r\nHost: x\r\nX-API-Key: ".as_slice(), b"\xff\xfe", b"\r\n\r\n"].concat(),
        [b"POST /categories HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\nX-API-Key: ".as_slice(), ADMIN_KEY.as_bytes(), b"\r\n\r\n{\"a\":\xff}"].concat(),
        b"GARBAGE\r\n\r\n".to_vec(),
    ];
    for request in &raw {
        let status = raw_status(&app, request).await;
        assert!(
            status < 500,
            "{status} for {:?}",
            String::from_utf8_lossy(request)
        );
    }

    // Everything written before is exactly as it was.
    assert_eq!(snapshot(&app, &pets).await, before);
    for (name, id) in SQL_NAMES.iter().zip(&pets) {
        assert_eq!(app.get_json(&format!("/pets/{id}")).await["name"], *name);
    }
    let res = app.get("/health").await;
    assert_eq!(res.status(), 200);

    // The history adds up to the stock for every pet.
    for item in app
        .get_json("/store/inventory?limit=500")
        .await
        .as_array()
        .unwrap()
    {
        let pet = item["petId"].as_i64().unwrap();
        let history = app
            .get_json(&format!("/store/inventory/{pet}/adjustments?limit=500"))
            .await;
        let sum: i64 = history
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["delta"].as_i64().unwrap())
            .sum();
        assert_eq!(sum, item["quantity"].as_i64().unwrap(), "pet {pet}");
    }

    // And the file itself is sound.
    if !sqlite_only("the SQLite integrity checks of the file") {
        return;
    }
    let db = app.db_path();
    let (integrity, foreign) = tokio::task::spawn_blocking(move || {
        let conn =
            rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .unwrap();
        let integrity: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        let foreign: i64 = conn
            .query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .unwrap();
        (integrity, foreign)
    })
    .await
    .unwrap();
    assert_eq!(integrity, "ok");
    assert_eq!(foreign, 0);
}
