//! The daily report's counter fields (interface 1.2): sales on the day of their `soldAt`, an
//! offline sale sent later included; refunds on the day they were made, less their tax and
//! less their amount from the method paid back by; the same figures in the CSV. Every figure
//! below is computed by hand.

use chrono::{Duration, SecondsFormat, Utc};
use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{body, TestApp};

async fn sell(app: &TestApp, sale: Value) -> Value {
    let res = app.post("/store/sales", sale.clone()).await;
    assert_eq!(res.status(), 201, "selling {sale}");
    body(res).await
}

async fn refund(app: &TestApp, sale: &Value, pet: i64, method: &str) {
    let res = app
        .post(
            &format!("/store/sales/{}/refunds", sale["id"]),
            json!({ "lines": [{ "petId": pet, "quantity": 1 }], "method": method,
                    "reason": "returned" }),
        )
        .await;
    assert_eq!(res.status(), 201);
}

fn counter(day: &Value) -> Value {
    json!([
        day["sales"],
        day["tax"],
        day["refunds"],
        day["cash"],
        day["card"],
        day["other"]
    ])
}

#[tokio::test]
async fn sales_count_on_their_sold_day_and_refunds_on_the_day_they_were_made() {
    let app = TestApp::spawn().await;
    app.set_profile(json!({ "timezone": "UTC", "taxIncluded": true, "defaultTaxRate": 2000 }))
        .await;
    let category = app.category("Food").await;
    let kibble = app
        .pet("Kibble", category)
        .no_status()
        .with("price", 1_200)
        .stock(50)
        .create()
        .await;
    let now = Utc::now();
    let day = |back: i64| (now - Duration::days(back)).date_naive().to_string();

    // Sold two days ago by a till that was offline, sent now: 1,200 (tax 1,200 × 2,000 /
    // 12,000 = 200) paid with 2,000 in cash, 800 back.
    let offline = sell(
        &app,
        json!({ "lines": [{ "petId": kibble, "quantity": 1 }],
                "payments": [{ "method": "cash", "amount": 2_000 }],
                "soldAt": (now - Duration::days(2)).to_rfc3339_opts(SecondsFormat::Secs, true) }),
    )
    .await;
    assert_eq!(offline["change"], 800);
    // Today: 2,400 (tax 400), 1,000 by card and 1,500 in cash, 100 back: cash 1,400.
    let split = sell(
        &app,
        json!({ "lines": [{ "petId": kibble, "quantity": 2 }],
                "payments": [{ "method": "card", "amount": 1_000 },
                             { "method": "cash", "amount": 1_500 }] }),
    )
    .await;
    // Today: 1,200 (tax 200) by other.
    sell(
        &app,
        json!({ "lines": [{ "petId": kibble, "quantity": 1 }],
                "payments": [{ "method": "other", "amount": 1_200 }] }),
    )
    .await;
    // Today, refunds: the offline sale's unit by card (1,200, tax 200) and one unit of the
    // split sale in cash (1,200, tax 200).
    refund(&app, &offline, kibble, "card").await;
    refund(&app, &split, kibble, "cash").await;

    let path = format!("/store/reports/daily?from={}&to={}", day(2), day(0));
    let report = app.get_json(&path).await;
    let days = report.as_array().unwrap();
    assert_eq!(days.len(), 3);
    // [sales, tax, refunds, cash, card, other]
    assert_eq!(days[0]["date"], day(2));
    assert_eq!(counter(&days[0]), json!([1, 200, 0, 1_200, 0, 0]));
    assert_eq!(counter(&days[1]), json!([0, 0, 0, 0, 0, 0]));
    // Tax 400 + 200 − 200 − 200; cash 1,400 − 1,200; card 1,000 − 1,200.
    assert_eq!(counter(&days[2]), json!([2, 200, 2_400, 200, -200, 1_200]));
    // The offline sale's order counts on its day too, as 1.1's columns always did.
    assert_eq!(
        (&days[0]["ordersPlaced"], &days[0]["revenue"]),
        (&json!(1), &json!(1_200))
    );

    let res = app
        .request(Method::GET, &path)
        .header("Accept", "text/csv")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.text().await.unwrap(),
        format!(
            "date,ordersPlaced,ordersCompleted,ordersCancelled,unitsSold,revenue,sales,tax,\
             refunds,cash,card,other\r\n\
             {},1,1,0,1,1200,1,200,0,1200,0,0\r\n\
             {},0,0,0,0,0,0,0,0,0,0,0\r\n\
             {},2,2,0,3,3600,2,200,2400,200,-200,1200\r\n",
            day(2),
            day(1),
            day(0)
        )
    );
}
