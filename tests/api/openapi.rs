//! The published OpenAPI document and the router describe the same interface, both ways.

use std::collections::BTreeSet;

use reqwest::Method;
use serde_json::Value;

use crate::support::{body, TestApp};

fn documented() -> BTreeSet<(String, String)> {
    let doc: Value = serde_json::from_str(petstore::OPENAPI_JSON).unwrap();
    let mut ops = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in ["get", "put", "post", "patch", "delete"] {
            if item.get(method).is_some() {
                ops.insert((method.to_uppercase(), path.clone()));
            }
        }
    }
    ops
}

fn routed() -> BTreeSet<(String, String)> {
    petstore::OPERATIONS
        .iter()
        .map(|op| (op.method.to_string(), op.path.to_string()))
        .collect()
}

fn repo_file(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name)
}

#[test]
fn the_committed_contract_facts_are_what_the_server_uses() {
    let committed = std::fs::read_to_string(repo_file("openapi/facts.json")).unwrap();
    assert!(
        committed == petstore::contract::facts_json(),
        "openapi/facts.json is stale: run `cargo run -q -- contract-facts > openapi/facts.json \
         && python3 openapi/generate.py`"
    );
}

#[test]
fn the_committed_document_is_what_the_generator_writes_from_the_facts() {
    let out = std::process::Command::new("python3")
        .arg(repo_file("openapi/generate.py"))
        .arg("--check")
        .output()
        .expect("python3 runs openapi/generate.py");
    assert!(
        out.status.success(),
        "openapi/openapi.json is stale: run `python3 openapi/generate.py`\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_operation_in_the_document_has_the_contracts_id_tag_and_stability() {
    let doc: Value = serde_json::from_str(petstore::OPENAPI_JSON).unwrap();
    for op in petstore::OPERATIONS {
        let documented = &doc["paths"][op.path][op.method.to_lowercase()];
        assert_eq!(documented["operationId"], op.operation_id, "{op:?}");
        assert_eq!(documented["tags"][0], op.tag, "{op:?}");
        let stability = serde_json::to_value(op.stability).unwrap();
        if stability == "stable" {
            assert!(documented.get("x-stability").is_none(), "{op:?}");
        } else {
            assert_eq!(documented["x-stability"], stability, "{op:?}");
        }
    }
}

#[test]
fn the_documents_error_codes_are_the_contracts_codes() {
    let doc: Value = serde_json::from_str(petstore::OPENAPI_JSON).unwrap();
    let documented: Vec<&str> = doc["components"]["schemas"]["Error"]["properties"]["code"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    let listed: Vec<&str> = petstore::contract::Code::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    assert_eq!(documented, listed);
}

#[test]
fn every_routed_operation_is_documented_and_every_documented_one_is_routed() {
    let (documented, routed) = (documented(), routed());
    let undocumented: Vec<_> = routed.difference(&documented).collect();
    let unrouted: Vec<_> = documented.difference(&routed).collect();
    assert!(
        undocumented.is_empty(),
        "routed but not documented: {undocumented:?}"
    );
    assert!(
        unrouted.is_empty(),
        "documented but not routed: {unrouted:?}"
    );
}

#[test]
fn the_document_is_openapi_3_0_3_version_1_1_0_with_the_three_tags() {
    let doc: Value = serde_json::from_str(petstore::OPENAPI_JSON).unwrap();
    assert_eq!(doc["openapi"], "3.0.3");
    assert_eq!(doc["info"]["version"], "1.2.0");
    let tags: BTreeSet<&str> = doc["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tags, BTreeSet::from(["Admin", "Pets", "Store"]));
    assert_eq!(doc["paths"]["/pets/{petId}"]["get"]["deprecated"], true);
}

/// Every (method, path) the table names answers with something other than "no such
/// route" or "method not allowed", with the table's `X-Stability`, and every other method
/// on those paths gets 405.
#[tokio::test]
async fn the_running_server_answers_exactly_the_routed_operations() {
    let app = TestApp::spawn().await;
    let routed = routed();
    let paths: BTreeSet<&String> = routed.iter().map(|(_, p)| p).collect();
    for path in paths {
        let concrete = path
            .replace("{petId}", "999999")
            .replace("{categoryId}", "999999")
            .replace("{orderId}", "999999")
            .replace("{keyId}", "999999")
            .replace("{stocktakeId}", "999999");
        for method in ["GET", "PUT", "POST", "PATCH", "DELETE"] {
            if method == "GET" && path == "/events" {
                continue; // a stream: answered below without waiting for its end
            }
            if method == "GET" && path == "/pair" {
                continue; // the staff UI's pairing page (tests/api/pairing.rs), not the API
            }
            let res = app
                .request(Method::from_bytes(method.as_bytes()).unwrap(), &concrete)
                .header("content-type", "application/json")
                .body("{}")
                .send()
                .await
                .unwrap();
            let status = res.status().as_u16();
            let stability = res
                .headers()
                .get("x-stability")
                .map(|v| v.to_str().unwrap().to_owned());
            // CSV exports answer CSV; everything else (and every error) JSON.
            let raw = res.text().await.unwrap();
            let text: Value = serde_json::from_str(&raw).unwrap_or(Value::String(raw));
            let is_routed = routed.contains(&(method.to_string(), path.clone()));
            if is_routed {
                assert_ne!(status, 405, "{method} {path}: {text}");
                let operation = petstore::contract::operation(method, path).unwrap();
                assert_eq!(
                    stability.as_deref(),
                    operation.stability.sent(),
                    "X-Stability of {method} {path} is the table's"
                );
                assert!(
                    status != 404 || text["message"] != "there is nothing at this address",
                    "{method} {path}"
                );
            } else {
                assert_eq!(
                    status, 405,
                    "{method} {path} is not routed and must be refused: {text}"
                );
            }
        }
    }
    let events = app.get("/events").await;
    assert_eq!(events.status(), 200);
    assert_eq!(events.headers()["content-type"], "text/event-stream");
    assert_eq!(events.headers()["x-stability"], "experimental");
}

#[tokio::test]
async fn the_document_and_the_docs_page_are_served_without_a_key() {
    let app = TestApp::spawn().await;
    let doc = app.get_without_key("/openapi.json").await;
    assert_eq!(doc.status(), 200);
    assert_eq!(body(doc).await["openapi"], "3.0.3");
    let page = app.get_without_key("/docs").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        !html.contains("https://"),
        "the docs page loads nothing from the internet"
    );
    let health = app.get_without_key("/health").await;
    assert_eq!(health.status(), 200);
}

#[test]
fn the_rate_limit_guide_lists_the_contracts_plans() {
    let guide = std::fs::read_to_string(repo_file("docs/rate-limits.md")).unwrap();
    let n = |v: u64| {
        let digits = v.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    for plan in petstore::contract::PLANS {
        let row = guide
            .lines()
            .find(|l| l.starts_with(&format!("| `{}` |", plan.name)))
            .unwrap_or_else(|| panic!("docs/rate-limits.md has no row for {}", plan.name));
        if let (Some(minute), Some(day)) = (plan.per_minute, plan.per_day) {
            assert_eq!(
                row,
                format!("| `{}` | {} | {} |", plan.name, n(minute), n(day)),
                "docs/rate-limits.md"
            );
        }
    }
}

/// A response object of the document, its `$ref` followed.
fn resolved<'d>(doc: &'d Value, response: &'d Value) -> &'d Value {
    match response["$ref"].as_str() {
        Some(target) => doc
            .pointer(target.trim_start_matches('#'))
            .unwrap_or_else(|| panic!("{target} is in the document")),
        None => response,
    }
}

#[test]
fn every_503_answer_is_documented_with_retry_after_and_the_causes_it_names() {
    let doc: Value = serde_json::from_str(petstore::OPENAPI_JSON).unwrap();
    let mut seen = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(unavailable) = op.pointer("/responses/503") else {
                continue;
            };
            seen += 1;
            let unavailable = resolved(&doc, unavailable);
            let retry = resolved(&doc, &unavailable["headers"]["Retry-After"]);
            assert!(
                retry["description"].is_string(),
                "{method} {path}: 503 without Retry-After"
            );
            let text = unavailable["description"].as_str().unwrap();
            if path != "/health" {
                for cause in ["PostgreSQL", "disk is full", "too many sign-ins"] {
                    assert!(text.contains(cause), "{method} {path}: {cause} in {text}");
                }
            }
        }
    }
    assert!(seen > 50, "every operation may answer 503 ({seen} seen)");
}
