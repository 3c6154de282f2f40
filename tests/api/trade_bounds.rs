//! The bounds of a sale, a refund, a supplier and a purchase order, as `openapi/facts.json`
//! publishes them, held against the running server: the value at each published limit is
//! accepted and the one just past it is refused, naming the field (tests/api/bounds.rs holds
//! the others, and fails while a published bound has no probe).

use reqwest::Response;
use serde_json::{json, Value};

use crate::bounds::{accepted, len, range};
use crate::support::{body, TestApp};

/// Asserts `res` is 422 `validation_failed` naming `field` first in its message.
async fn refused_naming(res: Response, field: &str, what: &str) {
    assert_eq!(res.status().as_u16(), 422, "{what}");
    let error = body(res).await;
    assert_eq!(error["code"], "validation_failed", "{what}: {error}");
    let message = error["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(&format!("{field}: ")),
        "{what}: {message}"
    );
}

/// Creates `count` available pets priced 10 with 10 units each; their ids.
async fn shelf(app: &TestApp, count: i64) -> Vec<i64> {
    let category = app.category("Fish").await;
    let mut pets = Vec::new();
    for i in 0..count {
        let pet = app.pet(&format!("Guppy {i}"), category);
        pets.push(pet.with("price", 10).stock(10).create().await);
    }
    pets
}

/// One unit of each pet, as a request's lines.
fn lines(pets: &[i64]) -> Vec<Value> {
    pets.iter()
        .map(|pet| json!({ "petId": pet, "quantity": 1 }))
        .collect()
}

/// `n` lines of one unit: the pets', then pets that do not exist (a count past the bound is
/// refused before any pet is looked up).
fn lines_of(pets: &[i64], n: i64) -> Vec<Value> {
    let missing = (1..).map(|k| 1_000_000 + k);
    let ids: Vec<i64> = pets.iter().copied().chain(missing).take(len(n)).collect();
    lines(&ids)
}

fn cash(amount: i64) -> Value {
    json!({ "method": "cash", "amount": amount })
}

/// An address of exactly `n` characters.
fn email_of(n: i64) -> String {
    let domain = "@example.com";
    format!("{}{domain}", "a".repeat(len(n) - domain.len()))
}

#[tokio::test]
async fn a_sale_takes_the_published_lines_payments_amounts_till_note_and_contact_only() {
    let app = TestApp::spawn().await;
    let (fewest, most) = range("sale_lines");
    let pets = shelf(&app, most + 1).await;
    let sales = "/store/sales";
    let sale = |lines: Vec<Value>, payments: Value| json!({ "lines": lines, "payments": payments });
    let enough = json!([cash(10 * (most + 1))]);
    for n in [most + 1, fewest - 1] {
        let res = app
            .post(sales, sale(lines(&pets[..len(n)]), enough.clone()))
            .await;
        refused_naming(res, "lines", &format!("a sale of {n} lines")).await;
    }
    let res = app
        .post(sales, sale(lines(&pets[..len(most)]), enough.clone()))
        .await;
    accepted(&res, "the most lines of a sale");

    // The other probes sell one unit of the pet left out above, once each.
    let one = || lines(&pets[len(most)..]);
    let (fewest, most) = range("payments");
    for n in [most + 1, fewest - 1] {
        let payments = Value::from(vec![cash(10); len(n)]);
        let res = app.post(sales, sale(one(), payments)).await;
        refused_naming(res, "payments", &format!("{n} payments")).await;
    }
    let payments = Value::from(vec![cash(10); len(most)]);
    accepted(
        &app.post(sales, sale(one(), payments)).await,
        "most payments",
    );
    let (least, most) = range("payment_amount");
    for n in [most + 1, least - 1] {
        let res = app.post(sales, sale(one(), json!([cash(n)]))).await;
        refused_naming(res, "payments[0].amount", &format!("amount {n}")).await;
    }
    let res = app.post(sales, sale(one(), json!([cash(most)]))).await;
    accepted(&res, "the largest amount");
    let res = app
        .post(sales, sale(one(), json!([cash(least), cash(10)])))
        .await;
    accepted(&res, "the smallest amount");

    let with = |field: &str, value: Value| {
        let mut body = sale(one(), json!([cash(10)]));
        body[field] = value;
        body
    };
    let (shortest, longest) = range("till");
    for n in [longest + 1, shortest - 1] {
        let res = app
            .post(sales, with("till", json!("t".repeat(len(n)))))
            .await;
        refused_naming(res, "till", &format!("a till of {n} characters")).await;
    }
    let till = "t".repeat(len(longest));
    accepted(
        &app.post(sales, with("till", json!(till))).await,
        "longest till",
    );
    for list in ["/store/sales", "/store/shifts"] {
        let res = app.get(&format!("{list}?till={till}")).await;
        accepted(&res, "longest till filter");
        let res = app.get(&format!("{list}?till={till}t")).await;
        assert_eq!(res.status(), 400, "a till filter past the longest");
    }
    let (_, longest) = range("sale_note");
    let res = app
        .post(sales, with("note", json!("n".repeat(len(longest) + 1))))
        .await;
    refused_naming(res, "note", "a note past the longest").await;
    let res = app
        .post(sales, with("note", json!("n".repeat(len(longest)))))
        .await;
    accepted(&res, "longest note");
    let (_, phone) = range("phone");
    let (_, email) = range("email");
    let customer = |phone: i64, email: i64| {
        with(
            "customer",
            json!({ "phone": "1".repeat(len(phone)), "email": email_of(email) }),
        )
    };
    let res = app.post(sales, customer(phone + 1, email)).await;
    refused_naming(res, "customer.phone", "a phone past the longest").await;
    let res = app.post(sales, customer(phone, email + 1)).await;
    refused_naming(res, "customer.email", "an email past the longest").await;
    let res = app.post(sales, customer(phone, email)).await;
    accepted(&res, "longest phone and email");
}

#[tokio::test]
async fn a_refund_takes_the_published_lines_and_reason_only() {
    let app = TestApp::spawn().await;
    let (fewest, most) = range("refund_lines");
    let pets = shelf(&app, most).await;
    let twice: Vec<Value> = pets
        .iter()
        .map(|pet| json!({ "petId": pet, "quantity": 2 }))
        .collect();
    let res = app
        .post(
            "/store/sales",
            json!({ "lines": twice, "payments": [cash(20 * most)] }),
        )
        .await;
    accepted(&res, "a sale to refund");
    let refunds = format!("/store/sales/{}/refunds", body(res).await["id"]);
    let refund = |lines: Vec<Value>, reason: String| json!({ "lines": lines, "method": "cash", "reason": reason });
    for n in [most + 1, fewest - 1] {
        let res = app
            .post(&refunds, refund(lines_of(&pets, n), "r".into()))
            .await;
        refused_naming(res, "lines", &format!("a refund of {n} lines")).await;
    }
    let res = app
        .post(&refunds, refund(lines(&pets[..len(most)]), "r".into()))
        .await;
    accepted(&res, "the most lines of a refund");

    // Each line has one unit left to refund.
    let last = || lines(&pets[..1]);
    let (shortest, longest) = range("refund_reason");
    for n in [longest + 1, shortest - 1] {
        let res = app.post(&refunds, refund(last(), "r".repeat(len(n)))).await;
        refused_naming(res, "reason", &format!("a reason of {n} characters")).await;
    }
    let res = app
        .post(&refunds, refund(last(), "r".repeat(len(longest))))
        .await;
    accepted(&res, "the longest reason");
}

#[tokio::test]
async fn a_supplier_and_a_purchase_order_take_the_published_lines_and_texts_only() {
    let app = TestApp::spawn().await;
    let suppliers = "/store/suppliers";
    let (_, contact) = range("contact");
    let (_, phone) = range("phone");
    let (_, email) = range("email");
    let supplier = |contact: i64, phone: i64, email: i64| {
        json!({ "name": format!("Acme {contact} {phone} {email}"),
                "contact": "c".repeat(len(contact)), "phone": "1".repeat(len(phone)),
                "email": email_of(email) })
    };
    for (body, field) in [
        (supplier(contact + 1, phone, email), "contact"),
        (supplier(contact, phone + 1, email), "phone"),
        (supplier(contact, phone, email + 1), "email"),
    ] {
        let res = app.post(suppliers, body).await;
        refused_naming(
            res,
            field,
            &format!("a supplier's {field} past its longest"),
        )
        .await;
    }
    let res = app.post(suppliers, supplier(contact, phone, email)).await;
    accepted(&res, "a supplier's longest texts");
    let acme = body(res).await["id"].as_i64().unwrap();

    let (fewest, most) = range("purchase_lines");
    let category = app.category("Fish").await;
    let mut pets = Vec::new();
    for i in 0..=most {
        let pet = app.pet(&format!("Tetra {i}"), category).no_status();
        pets.push(pet.with("supplierId", acme).with("cost", 80).create().await);
    }
    let orders = "/store/purchase-orders";
    let order = |lines: Vec<Value>, note: String| json!({ "supplierId": acme, "lines": lines, "note": note });
    for n in [most + 1, fewest - 1] {
        let res = app
            .post(orders, order(lines(&pets[..len(n)]), String::new()))
            .await;
        refused_naming(res, "lines", &format!("an order of {n} lines")).await;
    }
    let (_, longest) = range("purchase_note");
    let res = app
        .post(
            orders,
            order(lines(&pets[..1]), "n".repeat(len(longest) + 1)),
        )
        .await;
    refused_naming(res, "note", "a note past the longest").await;
    let res = app
        .post(
            orders,
            order(lines(&pets[..len(most)]), "n".repeat(len(longest))),
        )
        .await;
    accepted(&res, "the most lines and the longest note");
    let id = body(res).await["id"].clone();
    let res = app.post(&format!("{orders}/{id}/send"), json!({})).await;
    accepted(&res, "sending the order");
    let receive = format!("{orders}/{id}/receive");
    for n in [most + 1, fewest - 1] {
        let res = app
            .post(&receive, json!({ "lines": lines(&pets[..len(n)]) }))
            .await;
        refused_naming(res, "lines", &format!("a receipt of {n} lines")).await;
    }
    let res = app
        .post(&receive, json!({ "lines": lines(&pets[..len(most)]) }))
        .await;
    accepted(&res, "a receipt of the most lines");
}
