//! Every bound the contract publishes (`openapi/facts.json`, from which the OpenAPI document
//! is written), held against the running server: the value at each published limit is
//! accepted and the one just past it is refused. A bound added to the contract without a
//! probe here fails the first test, so the server cannot enforce a number the document
//! does not say.

use std::collections::BTreeSet;
use std::sync::Arc;

use petstore::limits::TestClock;
use reqwest::{Method, Response};
use serde_json::{json, Value};

use crate::support::{body, postgres_base, TestApp};

/// The bounds probed below, by the name the published facts give them.
const PROBED: &[&str] = &[
    "animal_source",
    "breed",
    "care_note",
    "care_product",
    "care_within",
    "care_within_default",
    "hold_reason",
    "body_bytes",
    "cash",
    "delta",
    "description",
    "idempotency_hours",
    "idempotency_key",
    "ids",
    "import_bytes",
    // The label sheet's three bounds: tests/api/labels.rs.
    "label_copies",
    "label_pets",
    "labels",
    "limit",
    "limit_default",
    "name",
    "per_day",
    "per_minute",
    "pin",
    "pin_failures",
    "pin_lock_minutes",
    "price",
    "quantity",
    "reason",
    "reorder_point",
    "reorder_quantity",
    "report_days",
    "report_days_default",
    "search",
    "session_idle_hours",
    "sku",
    "stock",
    "tax_rate",
    "weight_grams",
    // A sale's, a refund's, a supplier's and a purchase order's: tests/api/trade_bounds.rs.
    "contact",
    "email",
    "payment_amount",
    "payments",
    "phone",
    "purchase_lines",
    "purchase_note",
    "refund_lines",
    "refund_reason",
    "sale_lines",
    "sale_note",
    "till",
];

/// The bounds as published, by snake_case name.
fn published() -> serde_json::Map<String, Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/facts.json");
    let facts: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    facts["bounds"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, bound)| (snake(name), bound.clone()))
        .collect()
}

fn snake(camel: &str) -> String {
    camel.chars().fold(String::new(), |mut out, c| {
        if c.is_ascii_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
        out
    })
}

/// The published `(min, max)` of a range bound.
pub(crate) fn range(name: &str) -> (i64, i64) {
    let bound = &published()[name];
    (
        bound["min"].as_i64().unwrap(),
        bound["max"].as_i64().unwrap(),
    )
}

/// The published value of a single-number fact.
fn number(name: &str) -> i64 {
    published()[name].as_i64().unwrap()
}

pub(crate) fn len(n: i64) -> usize {
    usize::try_from(n).unwrap()
}

/// Asserts `res` succeeded; `what` says which probe.
pub(crate) fn accepted(res: &Response, what: &str) {
    assert!(res.status().is_success(), "{what}: {}", res.status());
}

/// Asserts `res` was refused with `status`; `what` says which probe.
fn refused(res: &Response, status: u16, what: &str) {
    assert_eq!(res.status().as_u16(), status, "{what}");
}

async fn put(app: &TestApp, path: &str, value: Value) -> Response {
    app.send_json(Method::PUT, path, value).await
}

async fn patch(app: &TestApp, path: &str, value: Value) -> Response {
    app.send_json(Method::PATCH, path, value).await
}

#[test]
fn every_bound_the_contract_publishes_has_a_probe_here() {
    let published: BTreeSet<String> = published().keys().cloned().collect();
    let probed: BTreeSet<String> = PROBED.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(published, probed);
}

/// Every `(min, max)` range of a schema in the document, with where it is: `minimum` and
/// `maximum`, `minLength` and `maxLength`, `minItems` and `maxItems` (either side may be
/// absent). Examples are skipped: they are values, not bounds.
fn documented_ranges(node: &Value, at: &str, out: &mut Vec<(String, Option<i64>, Option<i64>)>) {
    match node {
        Value::Object(object) => {
            for (low, high) in [
                ("minimum", "maximum"),
                ("minLength", "maxLength"),
                ("minItems", "maxItems"),
            ] {
                let (min, max) = (object.get(low), object.get(high));
                if min.is_some() || max.is_some() {
                    let number = |v: Option<&Value>| v.map(|v| v.as_i64().unwrap());
                    out.push((format!("{at} {low}/{high}"), number(min), number(max)));
                }
            }
            for (key, child) in object {
                if key != "example" && key != "examples" {
                    documented_ranges(child, &format!("{at}/{key}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                documented_ranges(child, &format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_range_the_document_publishes_is_one_of_the_contracts_bounds() {
    let ranges: Vec<(i64, i64)> = published()
        .values()
        .filter(|bound| bound.is_object())
        .map(|bound| {
            (
                bound["min"].as_i64().unwrap(),
                bound["max"].as_i64().unwrap(),
            )
        })
        .collect();
    let doc: Value = serde_json::from_str(petstore::OPENAPI_JSON).unwrap();
    let mut found = Vec::new();
    documented_ranges(&doc, "", &mut found);
    assert!(found.len() > 100, "only {} ranges found", found.len());
    let mut strays = Vec::new();
    for (at, min, max) in found {
        // A backup's name is one the server made itself, not a value a client chooses.
        if at.contains("/admin/backups/{name}") || at.contains("/schemas/Backup/") {
            continue;
        }
        // The Error object's `status` spans every status an error code comes with.
        if at.starts_with("/components/schemas/Error/properties/status") {
            let statuses = petstore::contract::Code::ALL
                .iter()
                .map(|c| i64::from(c.status()));
            let (low, high) = (min.unwrap(), max.unwrap());
            assert!(statuses.clone().all(|s| (low..=high).contains(&s)));
            continue;
        }
        let known = ranges.iter().any(|&(low, high)| {
            min.is_none_or(|min| min == low) && max.is_none_or(|max| max == high)
        });
        if !known {
            strays.push(format!("{at}: {min:?}..{max:?}"));
        }
    }
    assert!(
        strays.is_empty(),
        "ranges in the document that are no bound of src/contract.rs (add the bound there and \
         read it from facts.py):\n{}",
        strays.join("\n")
    );
}

#[tokio::test]
async fn an_animals_texts_and_a_holds_reason_are_accepted_at_their_bounds_and_refused_past_them() {
    let app = TestApp::spawn().await;
    let category = app.category("Dogs").await;
    let res = app
        .post("/pets", json!({ "name": "Rex", "categoryId": category }))
        .await;
    let path = format!("/pets/{}", body(res).await["id"]);
    let (_, breed) = range("breed");
    let (_, source) = range("animal_source");
    let record = |breed: i64, colour: i64, source: i64| {
        json!({ "animal": { "sex": "male", "breed": "b".repeat(len(breed)),
                            "colour": "c".repeat(len(colour)), "source": "s".repeat(len(source)) } })
    };
    accepted(
        &patch(&app, &path, record(breed, breed, source)).await,
        "longest animal texts",
    );
    for (body, what) in [
        (record(breed + 1, 1, 1), "breed"),
        (record(1, breed + 1, 1), "colour"),
        (record(1, 1, source + 1), "source"),
    ] {
        refused(
            &patch(&app, &path, body).await,
            422,
            &format!("{what} past its longest"),
        );
    }
    let (min, max) = range("hold_reason");
    let hold = |n: i64| json!({ "hold": { "until": "2020-01-01", "reason": "r".repeat(len(n)) } });
    accepted(&patch(&app, &path, hold(max)).await, "longest hold reason");
    accepted(&patch(&app, &path, hold(min)).await, "shortest hold reason");
    for n in [max + 1, min - 1] {
        refused(
            &patch(&app, &path, hold(n)).await,
            422,
            &format!("a hold reason of {n}"),
        );
    }
}

#[tokio::test]
async fn a_care_entrys_note_product_and_weight_and_the_due_window_hold_their_bounds() {
    let app = TestApp::spawn().await;
    let category = app.category("Cats").await;
    let res = app
        .post("/pets", json!({ "name": "Tom", "categoryId": category }))
        .await;
    let path = format!("/pets/{}/care", body(res).await["id"]);
    let (_, note) = range("care_note");
    let (_, product) = range("care_product");
    let (light, heavy) = range("weight_grams");
    let entry = |note: i64, product: i64, grams: i64| {
        json!({ "kind": "weight", "note": "n".repeat(len(note)),
                "product": "p".repeat(len(product)), "weightGrams": grams })
    };
    accepted(
        &app.post(&path, entry(note, product, heavy)).await,
        "longest care texts",
    );
    accepted(
        &app.post(&path, entry(0, 0, light)).await,
        "lightest weight",
    );
    for (body, what) in [
        (entry(note + 1, 0, light), "note"),
        (entry(0, product + 1, light), "product"),
        (entry(0, 0, heavy + 1), "heaviest weight"),
        (entry(0, 0, light - 1), "lightest weight"),
    ] {
        refused(
            &app.post(&path, body).await,
            422,
            &format!("{what} past its bound"),
        );
    }
    let (min, max) = range("care_within");
    for n in [min, max] {
        accepted(
            &app.get(&format!("/store/care/due?within={n}")).await,
            "within",
        );
    }
    for n in [min - 1, max + 1] {
        refused(
            &app.get(&format!("/store/care/due?within={n}")).await,
            400,
            "within",
        );
    }
    // The default window: a vaccination due on the last day of it is listed, one a day later is not.
    let default = number("care_within_default");
    let today = chrono::Local::now().date_naive();
    for (offset, name) in [(default, "Edge"), (default + 1, "Past")] {
        let res = app
            .post("/pets", json!({ "name": name, "categoryId": category }))
            .await;
        let id = body(res).await["id"].as_i64().unwrap();
        let due = (today + chrono::Duration::days(offset)).to_string();
        let res = app
            .post(
                &format!("/pets/{id}/care"),
                json!({ "kind": "vaccination", "dueOn": due }),
            )
            .await;
        accepted(&res, "a vaccination");
    }
    let listed = body(app.get("/store/care/due").await).await;
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["name"].as_str())
        .collect();
    assert_eq!(names, vec!["Edge"]);
}

#[tokio::test]
async fn names_descriptions_and_skus_are_accepted_at_their_longest_and_refused_past_it() {
    let app = TestApp::spawn().await;
    let (min, max) = range("name");
    accepted(
        &app.post("/categories", json!({ "name": "n".repeat(len(max)) }))
            .await,
        "longest name",
    );
    for n in [max + 1, min - 1] {
        let res = app
            .post("/categories", json!({ "name": "m".repeat(len(n)) }))
            .await;
        refused(&res, 422, &format!("a name of {n} characters"));
    }
    let (_, max) = range("description");
    let res = app
        .post(
            "/categories",
            json!({ "name": "Long", "description": "d".repeat(len(max)) }),
        )
        .await;
    accepted(&res, "longest description");
    let res = app
        .post(
            "/categories",
            json!({ "name": "Longer", "description": "d".repeat(len(max + 1)) }),
        )
        .await;
    refused(&res, 422, "description past the longest");
    let (min, max) = range("sku");
    let cat = app.category("Fish").await;
    let pet = |sku: String| json!({ "name": "Goldie", "categoryId": cat, "sku": sku });
    let res = app.post("/pets", pet("A".repeat(len(max)))).await;
    accepted(&res, "longest sku");
    for n in [max + 1, min - 1] {
        let res = app.post("/pets", pet("B".repeat(len(n)))).await;
        refused(&res, 422, &format!("a sku of {n} characters"));
    }
}

#[tokio::test]
async fn prices_tax_rates_stock_reorder_points_and_adjustments_are_accepted_at_their_limits_only() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let (min, max) = range("price");
    let priced = |price: i64| json!({ "name": "Goldie", "categoryId": cat, "price": price });
    for n in [min, max] {
        accepted(&app.post("/pets", priced(n)).await, &format!("price {n}"));
    }
    for n in [min - 1, max + 1] {
        refused(
            &app.post("/pets", priced(n)).await,
            422,
            &format!("price {n}"),
        );
    }
    let (min, max) = range("tax_rate");
    let taxed = |rate: i64| json!({ "name": "Goldie", "categoryId": cat, "taxRate": rate });
    for n in [min, max] {
        accepted(&app.post("/pets", taxed(n)).await, &format!("tax rate {n}"));
        let res = patch(&app, "/store/profile", json!({ "defaultTaxRate": n })).await;
        accepted(&res, &format!("default tax rate {n}"));
    }
    for n in [min - 1, max + 1] {
        refused(
            &app.post("/pets", taxed(n)).await,
            422,
            &format!("tax rate {n}"),
        );
        let res = patch(&app, "/store/profile", json!({ "defaultTaxRate": n })).await;
        refused(&res, 422, &format!("default tax rate {n}"));
    }
    let (min, max) = range("reorder_quantity");
    let reordered = |n: i64| json!({ "name": "Goldie", "categoryId": cat, "reorderQuantity": n });
    for n in [min, max] {
        let res = app.post("/pets", reordered(n)).await;
        accepted(&res, &format!("reorder quantity {n}"));
    }
    for n in [min - 1, max + 1] {
        let res = app.post("/pets", reordered(n)).await;
        refused(&res, 422, &format!("reorder quantity {n}"));
    }
    let pet = app.pet_with_stock("Goldie", cat, 0).await;
    let stock = format!("/store/inventory/{pet}");
    let (min, max) = range("stock");
    for n in [max, min] {
        accepted(&put(&app, &stock, json!({ "quantity": n })).await, "stock");
    }
    for n in [max + 1, min - 1] {
        let res = put(&app, &stock, json!({ "quantity": n })).await;
        refused(&res, 422, &format!("stock {n}"));
    }
    let (min, max) = range("reorder_point");
    for n in [max, min] {
        let res = patch(&app, &stock, json!({ "reorderPoint": n })).await;
        accepted(&res, &format!("reorder point {n}"));
    }
    for n in [max + 1, min - 1] {
        let res = patch(&app, &stock, json!({ "reorderPoint": n })).await;
        refused(&res, 422, &format!("reorder point {n}"));
    }
    // The stock is 0: the largest delta fills it to the top, the smallest empties it.
    let adjust = format!("/store/inventory/{pet}/adjustments");
    let (min, max) = range("delta");
    for n in [max + 1, min - 1] {
        let res = app.post(&adjust, json!({ "delta": n })).await;
        refused(&res, 422, &format!("delta {n}"));
    }
    accepted(&app.post(&adjust, json!({ "delta": max })).await, "delta");
    accepted(&app.post(&adjust, json!({ "delta": min })).await, "delta");
    let (_, max) = range("reason");
    let res = app
        .post(
            &adjust,
            json!({ "delta": 1, "reason": "r".repeat(len(max)) }),
        )
        .await;
    accepted(&res, "longest reason");
    let res = app
        .post(
            &adjust,
            json!({ "delta": 1, "reason": "r".repeat(len(max + 1)) }),
        )
        .await;
    refused(&res, 422, "reason past the longest");
}

#[tokio::test]
async fn a_drawer_takes_opening_and_counted_cash_at_its_limits_only() {
    let app = TestApp::spawn().await;
    let (min, max) = range("cash");
    for (till, n) in [("Min", min), ("Max", max)] {
        let res = app
            .post("/store/shifts", json!({ "till": till, "openingCash": n }))
            .await;
        accepted(&res, &format!("opening cash {n}"));
        let id = body(res).await["id"].as_i64().unwrap();
        let close = format!("/store/shifts/{id}/close");
        for past in [min - 1, max + 1] {
            let res = app.post(&close, json!({ "countedCash": past })).await;
            refused(&res, 422, &format!("counted cash {past}"));
        }
        let res = app.post(&close, json!({ "countedCash": n })).await;
        accepted(&res, &format!("counted cash {n}"));
    }
    for n in [min - 1, max + 1] {
        let res = app
            .post("/store/shifts", json!({ "till": "Past", "openingCash": n }))
            .await;
        refused(&res, 422, &format!("opening cash {n}"));
    }
}

#[tokio::test]
async fn an_order_takes_the_published_quantities_and_idempotency_keys_only() {
    let app = TestApp::spawn().await;
    let (min, max) = range("quantity");
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Goldie", cat, max + 1).await;
    for n in [max + 1, min - 1] {
        let res = app
            .post("/store/orders", json!({ "petId": pet, "quantity": n }))
            .await;
        refused(&res, 422, &format!("quantity {n}"));
    }
    app.order(pet, max).await;
    app.order(pet, min).await;
    let (min, max) = range("idempotency_key");
    let keyed = |key: String| {
        app.request(Method::POST, "/store/orders")
            .header("Idempotency-Key", key)
            .json(&json!({ "petId": pet, "quantity": 0 }))
            .send()
    };
    // The key is read before the body: a refused key is 400, an accepted one meets the
    // body's 422.
    for (n, status) in [(max, 422), (min, 422), (max + 1, 400), (min - 1, 400)] {
        let res = keyed("k".repeat(len(n))).await.unwrap();
        refused(
            &res,
            status,
            &format!("an Idempotency-Key of {n} characters"),
        );
    }
}

/// Moves the idempotency record of `key` back to `age_secs` seconds old, in the store's
/// own database (the lifetime is measured on the database's clock, not the test's).
async fn age_idempotency_record(app: &TestApp, key: &str, age_secs: i64) {
    let (location, owned) = (app.db_path(), key.to_owned());
    let created = chrono::Utc::now().timestamp() - age_secs;
    let sql = "UPDATE idempotency_records SET created_at = $1 WHERE idem_key = $2";
    let changed = tokio::task::spawn_blocking(move || match postgres_base() {
        Some(_) => {
            let url = location.to_string_lossy().into_owned();
            let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
            client.execute(sql, &[&created, &owned]).unwrap()
        }
        None => {
            let db = rusqlite::Connection::open(location).unwrap();
            db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
            let sql = sql.replace('$', "?");
            db.execute(&sql, rusqlite::params![created, owned]).unwrap() as u64
        }
    })
    .await
    .unwrap();
    assert_eq!(changed, 1, "one record holds key {key}");
}

#[tokio::test]
async fn an_idempotency_key_is_replayed_for_the_published_hours_and_no_longer() {
    let app = TestApp::spawn().await;
    let hours = number("idempotency_hours");
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Goldie", cat, 10).await;
    let place = || async {
        let res = app
            .request(Method::POST, "/store/orders")
            .header("Idempotency-Key", "one-sale")
            .json(&json!({ "petId": pet, "quantity": 1 }))
            .send()
            .await
            .unwrap();
        accepted(&res, "keyed order");
        body(res).await["id"].as_i64().unwrap()
    };
    let first = place().await;
    age_idempotency_record(&app, "one-sale", hours * 3_600 - 60).await;
    assert_eq!(place().await, first, "replayed within the lifetime");
    age_idempotency_record(&app, "one-sale", hours * 3_600 + 60).await;
    assert_ne!(place().await, first, "acted again past the lifetime");
    let stock = app.get_json(&format!("/store/inventory/{pet}")).await;
    assert_eq!(stock["quantity"], 8);
}

#[tokio::test]
async fn pages_id_lists_and_searches_are_held_to_their_published_sizes() {
    let app = TestApp::spawn().await;
    let default = number("limit_default");
    for n in 0..=default {
        app.category(&format!("Category {n}")).await;
    }
    let listed = app.get_json("/categories").await;
    assert_eq!(listed.as_array().unwrap().len(), len(default));
    let (min, max) = range("limit");
    for n in [min, max] {
        accepted(&app.get(&format!("/categories?limit={n}")).await, "limit");
    }
    for n in [min - 1, max + 1] {
        let res = app.get(&format!("/categories?limit={n}")).await;
        refused(&res, 400, &format!("limit {n}"));
    }
    let ids = |n: i64| {
        (1..=n)
            .map(|id| id.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let (_, max) = range("ids");
    accepted(&app.get(&format!("/pets?ids={}", ids(max))).await, "ids");
    let res = app.get(&format!("/pets?ids={}", ids(max + 1))).await;
    refused(&res, 400, "ids past the most");
    let (_, max) = range("search");
    let q = |n: i64| "q".repeat(len(n));
    accepted(&app.get(&format!("/pets?q={}", q(max))).await, "search");
    refused(&app.get(&format!("/pets?q={}", q(max + 1))).await, 400, "q");
}

#[tokio::test]
async fn an_enterprise_key_takes_the_published_quotas_only() {
    let app = TestApp::spawn().await;
    let (minute_min, minute_max) = range("per_minute");
    let (day_min, day_max) = range("per_day");
    let key = |per_minute: i64, per_day: i64| {
        json!({
            "name": "Till", "role": "pos", "plan": "enterprise",
            "perMinute": per_minute, "perDay": per_day,
        })
    };
    for (m, d) in [(minute_max, day_max), (minute_min, day_min)] {
        accepted(&app.post("/admin/keys", key(m, d)).await, "quota");
    }
    for (m, d) in [
        (minute_max + 1, day_max),
        (minute_min - 1, day_max),
        (minute_max, day_max + 1),
        (minute_max, day_min - 1),
    ] {
        let res = app.post("/admin/keys", key(m, d)).await;
        refused(&res, 422, &format!("perMinute {m}, perDay {d}"));
    }
}

/// A JSON body of exactly `size` bytes creating a category (padded with spaces).
fn json_of_size(size: usize) -> String {
    let json = r#"{"name": "Padded"}"#;
    format!("{json}{}", " ".repeat(size - json.len()))
}

#[tokio::test]
async fn bodies_are_read_up_to_their_published_size_and_refused_past_it() {
    let app = TestApp::spawn().await;
    let (_, max) = range("body_bytes");
    let send =
        |bytes: String| app.send_raw(Method::POST, "/categories", Some("application/json"), bytes);
    accepted(&send(json_of_size(len(max))).await, "largest JSON body");
    refused(&send(json_of_size(len(max + 1))).await, 413, "JSON body");
    let (_, max) = range("import_bytes");
    // One name of the whole size: read, then refused for its length, not for its size.
    let csv = |size: usize| {
        let head = "name,category\n";
        format!("{head}{}", "x".repeat(size - head.len()))
    };
    let import = |bytes: String| {
        app.send_raw(
            Method::POST,
            "/store/import/pets?dryRun=true",
            Some("text/csv"),
            bytes,
        )
    };
    refused(&import(csv(len(max))).await, 422, "largest CSV body");
    refused(&import(csv(len(max + 1))).await, 413, "CSV body");
}

#[tokio::test]
async fn a_daily_report_covers_the_published_days() {
    let app = TestApp::spawn().await;
    let default = number("report_days_default");
    let report = app.get_json("/store/reports/daily").await;
    assert_eq!(report.as_array().unwrap().len(), len(default));
    let (min, max) = range("report_days");
    let from = chrono::NaiveDate::from_ymd_opt(2025, 1, 1).unwrap();
    let path = |days: i64| {
        let to = from + chrono::Days::new(u64::try_from(days - 1).unwrap());
        format!("/store/reports/daily?from={from}&to={to}")
    };
    for days in [min, max] {
        let report = app.get_json(&path(days)).await;
        assert_eq!(report.as_array().unwrap().len(), len(days));
    }
    refused(&app.get(&path(max + 1)).await, 400, "days past the most");
}

/// 2026-11-22T10:00:18Z: no minute ends while a test runs on this clock.
const NOW: i64 = 1_795_305_600 + 10 * 3_600 + 18;

#[tokio::test]
async fn pins_sessions_and_locks_follow_the_published_numbers() {
    let clock = Arc::new(TestClock::new(NOW));
    let app = TestApp::builder().clock(clock.clone()).spawn().await;
    let (min, max) = range("pin");
    for (name, digits) in [("Ann", max), ("Bob", min)] {
        let member = json!({ "name": name, "role": "staff", "pin": "1".repeat(len(digits)) });
        accepted(&app.post("/admin/staff", member).await, "PIN length");
    }
    for digits in [max + 1, min - 1] {
        let member = json!({ "name": "Cy", "role": "staff", "pin": "2".repeat(len(digits)) });
        let res = app.post("/admin/staff", member).await;
        refused(&res, 422, &format!("a PIN of {digits} digits"));
    }
    let (ann, bob) = ("1".repeat(len(max)), "1".repeat(len(min)));

    // One wrong PIN short of the lock still signs in; the last one locks the name.
    let failures = number("pin_failures");
    for _ in 1..failures {
        refused(&app.sign_in("Ann", "9999").await, 401, "wrong PIN");
    }
    let res = app.sign_in("Ann", &ann).await;
    accepted(&res, "signing in below the lock");
    let idle = body(res).await["secret"].as_str().unwrap().to_owned();
    for _ in 0..failures {
        refused(&app.sign_in("Bob", "9999").await, 401, "wrong PIN");
    }
    refused(&app.sign_in("Bob", &bob).await, 429, "locked name");
    let lock = number("pin_lock_minutes") * 60;
    clock.advance(lock - 1);
    refused(&app.sign_in("Bob", &bob).await, 429, "still locked");
    clock.advance(1);
    let res = app.sign_in("Bob", &bob).await;
    accepted(&res, "signing in after the lock");
    let used = body(res).await["secret"].as_str().unwrap().to_owned();

    // A session lasts its idle hours since it was last used (a minute either side).
    let idle_secs = number("session_idle_hours") * 3_600;
    let get = |key: &str| app.request_as(key, Method::GET, "/pets").send();
    clock.advance(idle_secs - lock - 60);
    accepted(
        &get(&idle).await.unwrap(),
        "a session used within its idle time",
    );
    accepted(
        &get(&used).await.unwrap(),
        "a session used within its idle time",
    );
    clock.advance(idle_secs - 60);
    accepted(
        &get(&idle).await.unwrap(),
        "a session used within its idle time",
    );
    clock.advance(120);
    refused(&get(&used).await.unwrap(), 401, "a session idle too long");
}
