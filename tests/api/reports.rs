//! The daily report: one entry per local day of the store's time zone, as JSON or CSV.

use chrono::{Days, Utc};
use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, body, sqlite_only, TestApp};

/// Puts an order on the books as placed (and completed) at the given instants, as a till
/// would have done then: written straight into the store's file beside the running server.
fn seed_order(
    app: &TestApp,
    pet: i64,
    quantity: i64,
    unit_price: Option<i64>,
    placed: &str,
    completed: Option<&str>,
) {
    let conn = rusqlite::Connection::open(app.db_path()).unwrap();
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .unwrap();
    conn.execute(
        "INSERT INTO orders (pet_id, quantity, complete, created_at, completed_at, unit_price)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        rusqlite::params![
            pet,
            quantity,
            completed.is_some(),
            placed,
            completed,
            unit_price
        ],
    )
    .unwrap();
}

async fn set_timezone(app: &TestApp, tz: &str) {
    app.set_profile(json!({ "timezone": tz })).await;
}

fn day<'a>(report: &'a Value, date: &str) -> &'a Value {
    report
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["date"] == date)
        .unwrap_or_else(|| panic!("no {date} in {report}"))
}

#[tokio::test]
async fn orders_fall_on_the_local_day_of_the_store_across_midnight() {
    if !sqlite_only("it writes back-dated orders straight into the SQLite file") {
        return;
    }
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Goldie", cat, 0).await;
    set_timezone(&app, "America/New_York").await;
    // 23:30 and 23:59:59 on the 10th in New York (UTC-5 in January), then 00:00 and 00:30 on the 11th.
    seed_order(
        &app,
        pet,
        2,
        Some(500),
        "2026-01-11T04:30:00Z",
        Some("2026-01-11T05:10:00Z"),
    );
    seed_order(&app, pet, 1, Some(500), "2026-01-11T04:59:59Z", None);
    seed_order(&app, pet, 1, None, "2026-01-11T05:00:00Z", None);
    seed_order(
        &app,
        pet,
        3,
        Some(100),
        "2026-01-11T05:30:00Z",
        Some("2026-01-12T04:59:00Z"),
    );

    let report = app
        .get_json("/store/reports/daily?from=2026-01-09&to=2026-01-12")
        .await;
    let dates: Vec<&str> = report
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["date"].as_str().unwrap())
        .collect();
    assert_eq!(
        dates,
        ["2026-01-09", "2026-01-10", "2026-01-11", "2026-01-12"]
    );
    assert_eq!(
        day(&report, "2026-01-09"),
        &json!({ "date": "2026-01-09", "ordersPlaced": 0, "ordersCompleted": 0, "ordersCancelled": 0, "unitsSold": 0, "revenue": 0, "sales": 0, "tax": 0, "refunds": 0, "cash": 0, "card": 0, "other": 0 })
    );
    assert_eq!(
        day(&report, "2026-01-10"),
        &json!({ "date": "2026-01-10", "ordersPlaced": 2, "ordersCompleted": 0, "ordersCancelled": 0, "unitsSold": 3, "revenue": 1500, "sales": 0, "tax": 0, "refunds": 0, "cash": 0, "card": 0, "other": 0 })
    );
    assert_eq!(
        day(&report, "2026-01-11"),
        &json!({ "date": "2026-01-11", "ordersPlaced": 2, "ordersCompleted": 2, "ordersCancelled": 0, "unitsSold": 4, "revenue": 300, "sales": 0, "tax": 0, "refunds": 0, "cash": 0, "card": 0, "other": 0 })
    );
    assert_eq!(day(&report, "2026-01-12")["ordersPlaced"], 0);

    // The same orders in UTC: all placed on the 11th.
    set_timezone(&app, "UTC").await;
    let report = app
        .get_json("/store/reports/daily?from=2026-01-10&to=2026-01-11")
        .await;
    assert_eq!(day(&report, "2026-01-10")["ordersPlaced"], 0);
    assert_eq!(day(&report, "2026-01-11")["ordersPlaced"], 4);
    assert_eq!(day(&report, "2026-01-11")["revenue"], 1800);
}

#[tokio::test]
async fn a_cancelled_order_counts_on_its_days_but_its_units_and_revenue_do_not() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Goldie", cat, 10).await;
    app.send_json(
        Method::PATCH,
        &format!("/pets/{pet}"),
        json!({ "price": 250 }),
    )
    .await;
    let kept = app.order(pet, 2).await;
    let cancelled = app.order(pet, 3).await;
    let res = app
        .delete(&format!("/store/orders/{}", cancelled["id"]))
        .await;
    assert_eq!(res.status(), 204);
    app.complete(&kept).await;

    let profile = app.get_json("/store/profile").await;
    let tz: chrono_tz::Tz = profile["timezone"].as_str().unwrap().parse().unwrap();
    let today = Utc::now().with_timezone(&tz).date_naive().to_string();
    let report = app.get_json("/store/reports/daily").await;
    assert_eq!(
        report.as_array().unwrap().len(),
        30,
        "the default is the last 30 days"
    );
    assert_eq!(report.as_array().unwrap().last().unwrap()["date"], today);
    assert_eq!(
        day(&report, &today),
        &json!({ "date": today, "ordersPlaced": 2, "ordersCompleted": 1, "ordersCancelled": 1, "unitsSold": 2, "revenue": 500, "sales": 0, "tax": 0, "refunds": 0, "cash": 0, "card": 0, "other": 0 })
    );
}

#[tokio::test]
async fn the_report_comes_as_csv_when_asked_for() {
    if !sqlite_only("it writes back-dated orders straight into the SQLite file") {
        return;
    }
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Goldie", cat, 0).await;
    set_timezone(&app, "UTC").await;
    seed_order(&app, pet, 2, Some(125), "2026-03-02T10:00:00Z", None);
    assert_eq!(
        app.get_csv("/store/reports/daily?from=2026-03-01&to=2026-03-02")
            .await,
        "date,ordersPlaced,ordersCompleted,ordersCancelled,unitsSold,revenue,sales,tax,refunds,\
         cash,card,other\r\n\
         2026-03-01,0,0,0,0,0,0,0,0,0,0,0\r\n\
         2026-03-02,1,0,0,2,250,0,0,0,0,0,0\r\n"
    );
}

#[tokio::test]
async fn a_day_asked_as_white_space_is_refused_where_an_empty_one_is_the_default() {
    let app = TestApp::spawn().await;
    for path in [
        "/store/reports/daily",
        "/store/reports/animals",
        "/store/sales",
        "/store/export/stock-changes.csv",
    ] {
        for name in ["from", "to"] {
            let res = app.get(&format!("{path}?{name}=")).await;
            assert_eq!(res.status(), 200, "{path}?{name}= takes the default");
            let res = app.get(&format!("{path}?{name}=%0C")).await;
            assert_error(res, 400, "bad_request").await;
            let res = app.get(&format!("{path}?{name}=%20%20")).await;
            assert_error(res, 400, "bad_request").await;
        }
    }
}

#[tokio::test]
async fn a_report_covers_at_most_366_days_with_from_not_after_to() {
    let app = TestApp::spawn().await;
    let res = app
        .get("/store/reports/daily?from=2025-01-01&to=2026-01-01")
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await.as_array().unwrap().len(), 366);
    for query in [
        "from=2025-01-01&to=2026-01-02",
        "from=2026-01-02&to=2026-01-01",
        "from=2026-13-01",
        "to=yesterday",
        "day=2026-01-01",
    ] {
        let res = app.get(&format!("/store/reports/daily?{query}")).await;
        assert_error(res, 400, "bad_request").await;
    }
    // `from` alone runs to today.
    let from = Utc::now()
        .date_naive()
        .checked_sub_days(Days::new(3))
        .unwrap();
    let res = app.get(&format!("/store/reports/daily?from={from}")).await;
    let len = body(res).await.as_array().unwrap().len();
    assert!((3..=5).contains(&len), "{len}");
}
