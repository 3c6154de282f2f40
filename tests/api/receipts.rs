//! `GET /store/sales/{id}/receipt` (interface 1.2): the printable receipt as HTML for 80 mm
//! paper, or as plain text of at most 42 characters a line; money in the store's currency,
//! the time in the store's time zone, every stored text escaped in the HTML.

use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, body, header, TestApp};

async fn profile(app: &TestApp, change: Value) {
    app.set_profile(change).await;
}

async fn priced(app: &TestApp, name: &str, price: i64, stock: i64) -> i64 {
    app.pet_for_sale(&format!("shelf {price}"), name, price, stock)
        .await
}

async fn receipt(app: &TestApp, id: &Value, accept: Option<&str>) -> (String, String) {
    let mut req = app.request(Method::GET, &format!("/store/sales/{id}/receipt"));
    if let Some(accept) = accept {
        req = req.header("Accept", accept);
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["x-stability"], "beta");
    let content_type = header(&res, "content-type");
    (content_type, res.text().await.unwrap())
}

/// The sale's `soldAt` as the store's local time in Berlin, as the receipt prints it.
fn berlin(sold_at: &Value) -> String {
    chrono::DateTime::parse_from_rfc3339(sold_at.as_str().unwrap())
        .unwrap()
        .with_timezone(&chrono_tz::Europe::Berlin)
        .format("%Y-%m-%d %H:%M %Z")
        .to_string()
}

#[tokio::test]
async fn the_html_receipt_shows_the_sale_in_the_store_s_currency_and_time_and_escapes_every_name() {
    let app = TestApp::spawn().await;
    profile(
        &app,
        json!({ "name": "Corner <Pets> & Co", "currency": "EUR", "timezone": "Europe/Berlin",
                "taxIncluded": true, "defaultTaxRate": 2000 }),
    )
    .await;
    let kibble = priced(&app, "Kibble", 1_250, 10).await;
    let script = priced(&app, "<script>alert(1)</script>", 199, 10).await;
    let sold_at = (chrono::Utc::now() - chrono::Duration::hours(2))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let res = app
        .post(
            "/store/sales",
            json!({ "lines": [{ "petId": kibble, "quantity": 2, "discount": 100 },
                              { "petId": script, "quantity": 3 }],
                    "payments": [{ "method": "card", "amount": 1_000 },
                                 { "method": "cash", "amount": 4_000 }],
                    "till": "Front & <b>", "soldAt": sold_at }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let sale = body(res).await;
    // Kibble 2 × 12.50 − 1.00 = 24.00 (tax 4.00); the other 3 × 1.99 = 5.97 (tax 0.995 →
    // 1.00): total 29.97, tax 5.00, change 50.00 − 29.97 = 20.03.
    assert_eq!(
        (&sale["total"], &sale["tax"], &sale["change"]),
        (&json!(2_997), &json!(500), &json!(2_003))
    );
    let res = app
        .post(
            &format!("/store/sales/{}/refunds", sale["id"]),
            json!({ "lines": [{ "petId": script, "quantity": 1 }], "method": "cash",
                    "reason": "<img src=x onerror=alert(2)>" }),
        )
        .await;
    assert_eq!(res.status(), 201);

    let (content_type, html) = receipt(&app, &sale["id"], None).await;
    assert_eq!(content_type, "text/html; charset=utf-8");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("@page { size: 80mm auto;"), "{html}");
    // Only the page's own markup: no stored text opens a tag.
    assert!(!html.contains("<script") && !html.contains("<b>") && !html.contains("<img"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("<h1>Corner &lt;Pets&gt; &amp; Co</h1>"));
    assert!(html.contains("Till Front &amp; &lt;b&gt;"));
    assert!(html.contains("<p>Sale 1</p>"));
    assert!(html.contains(&format!("<p>{}</p>", berlin(&sale["soldAt"]))));
    for (label, amount) in [
        ("2 x 12.50", "25.00"),
        ("Discount", "-1.00"),
        ("3 x 1.99", "5.97"),
        ("Subtotal", "30.97"),
        ("Tax included", "5.00"),
        ("TOTAL EUR", "29.97"),
        ("Card", "10.00"),
        ("Cash", "40.00"),
        ("Change", "20.03"),
        ("1 x &lt;script&gt;alert(1)&lt;/script&gt;", "-1.99"),
        ("Paid back, cash", "-1.99"),
        ("Refunded", "-1.99"),
    ] {
        let cells = format!("<td>{label}</td><td class=\"amount\">{amount}</td>");
        assert!(html.contains(&cells), "{cells} in {html}");
    }
}

#[tokio::test]
async fn the_plain_receipt_keeps_every_line_within_42_characters_and_wraps_long_names() {
    let app = TestApp::spawn().await;
    profile(
        &app,
        json!({ "name": "Yokohama Aquarium Supplies and Tropical Fish Emporium",
                          "currency": "JPY", "taxIncluded": false, "defaultTaxRate": 1000 }),
    )
    .await;
    let long =
        "Premium grain free salmon and sweet potato kibble for adult dogs of large breeds 12 kg";
    let unbroken = "Aquariumfilterreplacementcartridgeextralargeforhundredlitretanks";
    let a = priced(&app, long, 12_500, 5).await;
    let b = priced(&app, unbroken, 480, 5).await;
    let res = app
        .post(
            "/store/sales",
            json!({ "lines": [{ "petId": a, "quantity": 1 }, { "petId": b, "quantity": 2 }],
                    "payments": [{ "method": "cash", "amount": 20_000 }] }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let sale = body(res).await;
    // 12,500 + 960 = 13,460; tax 10 % added: 1,250 + 96 = 1,346; total 14,806; change 5,194.
    assert_eq!(
        (&sale["total"], &sale["change"]),
        (&json!(14_806), &json!(5_194))
    );

    let (content_type, text) = receipt(&app, &sale["id"], Some("text/plain")).await;
    assert_eq!(content_type, "text/plain; charset=utf-8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 15, "{text}");
    for line in &lines {
        assert!(
            line.chars().count() <= 42,
            "{} characters: {line:?}",
            line.chars().count()
        );
    }
    // Every word of the long name is printed, over more than one line; the unbroken name is
    // cut into pieces that put it back together.
    let printed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(printed.contains(long), "{text}");
    assert!(text.replace('\n', "").contains(unbroken), "{text}");
    assert!(lines
        .iter()
        .any(|l| l.trim() == "Yokohama Aquarium Supplies and Tropical"));
    // Yen have no decimal places.
    let amount = |label: &str| {
        lines
            .iter()
            .find(|l| l.starts_with(label))
            .map(|l| l.rsplit(' ').next().unwrap().to_owned())
            .unwrap_or_else(|| panic!("no {label} line in {text}"))
    };
    assert_eq!(amount("Subtotal"), "13460");
    assert_eq!(amount("Tax "), "1346");
    assert_eq!(amount("TOTAL JPY"), "14806");
    assert_eq!(amount("Cash"), "20000");
    assert_eq!(amount("Change"), "5194");
    assert!(lines
        .iter()
        .any(|l| l.trim_start().starts_with("2 x 480") && l.ends_with(" 960")));
    // What the receipt says, for a person to look at when this fails.
    println!("{text}");
}

#[tokio::test]
async fn a_readonly_key_reads_a_receipt_and_an_unknown_sale_has_none() {
    let app = TestApp::spawn().await;
    let pet = priced(&app, "Guppy", 300, 5).await;
    let res = app
        .post(
            "/store/sales",
            json!({ "lines": [{ "petId": pet, "quantity": 1 }],
                    "payments": [{ "method": "card", "amount": 300 }] }),
        )
        .await;
    let sale = body(res).await;
    let readonly = app.key("readonly", "business").await;
    let res = app
        .request_as(
            &readonly,
            Method::GET,
            &format!("/store/sales/{}/receipt", sale["id"]),
        )
        .header("Accept", "text/html, text/plain")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "content-type"), "text/html; charset=utf-8");
    assert_eq!(header(&res, "vary"), "Accept");
    let res = app.get("/store/sales/999/receipt").await;
    assert_error(res, 404, "not_found").await;
}
