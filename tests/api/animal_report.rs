//! `/store/reports/animals` (interface 1.2): each individual animal sold in a period, with
//! its record, its sale and its buyer, as JSON or as CSV guarded against formulas.

use reqwest::Method;
use serde_json::json;

use crate::support::{assert_error, body, header, TestApp};

async fn animal_for_sale(app: &TestApp, name: &str, animal: serde_json::Value) -> i64 {
    let category = app.category(&format!("{name} kind")).await;
    app.pet(name, category)
        .with("price", 40_000)
        .with("animal", animal)
        .stock(1)
        .create()
        .await
}

#[tokio::test]
async fn the_report_lists_each_animal_sold_with_its_record_sale_and_buyer() {
    let app = TestApp::spawn().await;
    let record = json!({ "sex": "female", "breed": "Beagle", "microchip": "985112345678903",
                         "source": "=Hillside Kennels" });
    let bella = animal_for_sale(&app, "Bella", record.clone()).await;
    let unsold = animal_for_sale(&app, "Milo", json!({ "sex": "male" })).await;
    let category = app.category("Food").await;
    let food = app
        .pet("Kibble", category)
        .no_status()
        .with("price", 500)
        .stock(5)
        .create()
        .await;
    let res = app
        .post(
            "/store/sales",
            json!({ "lines": [{ "petId": bella, "quantity": 1 }, { "petId": food, "quantity": 1 }],
                    "payments": [{ "method": "card", "amount": 40_500 }],
                    "customer": { "name": "Ann Lee", "phone": "555 0100",
                                  "email": "ann@example.com" } }),
        )
        .await;
    assert_eq!(res.status(), 201);
    let sale = body(res).await;

    let res = app.get("/store/reports/animals").await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-stability"), "beta");
    let report = body(res).await;
    assert_eq!(report.as_array().unwrap().len(), 1, "{report}");
    let row = &report[0];
    assert_eq!(row["petId"], bella);
    assert_eq!(row["name"], "Bella");
    assert_eq!(row["animal"], record);
    assert_eq!(row["saleId"], sale["id"]);
    assert_eq!(row["number"], sale["number"]);
    assert_eq!(row["soldAt"], sale["soldAt"]);
    assert_eq!(
        row["buyer"],
        json!({ "name": "Ann Lee", "phone": "555 0100", "email": "ann@example.com" })
    );
    assert!(report.to_string().contains(&bella.to_string()));
    assert!(!report
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["petId"] == unsold));

    let text = app.get_csv("/store/reports/animals").await;
    let lines: Vec<&str> = text.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("soldAt,saleId,number,petId,name,sex"),
        "{}",
        lines[0]
    );
    assert!(lines[1].contains("985112345678903"), "{}", lines[1]);
    assert!(lines[1].contains("'=Hillside Kennels"), "{}", lines[1]);
    assert!(lines[1].contains("ann@example.com"), "{}", lines[1]);

    // A period without the sale is empty; a bad period is refused.
    let empty = app
        .get_json("/store/reports/animals?from=2020-01-01&to=2020-01-31")
        .await;
    assert_eq!(empty, json!([]));
    for bad in [
        "?from=2020-02-01&to=2020-01-01",
        "?from=yesterday",
        "?to=2020-01-01&from=2018-01-01",
    ] {
        let res = app.get(&format!("/store/reports/animals{bad}")).await;
        assert_error(res, 400, "bad_request").await;
    }
    // Buyers' contacts are for staff: a readonly key may not read the report.
    let readonly = app.key("readonly", "free").await;
    let res = app
        .send_as(&readonly, Method::GET, "/store/reports/animals")
        .await;
    assert_error(res, 403, "forbidden").await;
}
