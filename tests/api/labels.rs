//! Shelf labels (`GET /store/labels.svg`): the sheet is drawn by the server, rendered to PNG
//! by `rsvg-convert` and read back by `zbarimg`, an independent decoder; every pet's code must
//! come back exactly, once per label and copy. Needs librsvg2-bin and zbar-tools, which
//! ./scripts/test.sh installs; a missing tool fails the test, it never skips.

use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{assert_error, assert_error_saying, header, TestApp};

async fn pet(app: &TestApp, category: i64, fields: Value) -> i64 {
    let name = fields["name"].as_str().unwrap();
    app.pet(name, category)
        .no_status()
        .fields(fields.clone())
        .create()
        .await
}

/// Runs `program` with `args`, failing loudly (never skipping) when it is not installed.
fn run(program: &str, package: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!("{program} (Debian's {package}) must be installed: ./scripts/test.sh installs it ({e})")
        })
}

/// A 24-up A4 sheet: three columns of eight 70 × 37 mm places, half a millimetre from the top.
const COLUMNS: usize = 3;
const ROWS: usize = 8;

/// What `zbarimg` reads in each of `places` on `svg` (a place number, page after page, row
/// by row, left to right, and its width in places), each rendered on its own at 300 dpi by
/// `rsvg-convert`: zbar reports a code seen twice in one image once, so the places are read
/// one at a time to count copies. A place holds `None` when nothing is read there. UPC-A is
/// read as UPC-A (zbar would otherwise report it as the EAN-13 with a leading 0, the same bars).
fn decoded(svg: &[u8], places: &[(usize, usize)]) -> Vec<Option<String>> {
    let text = std::str::from_utf8(svg).unwrap();
    let height: f64 = text
        .split("height=\"")
        .nth(1)
        .and_then(|rest| rest.split("mm\"").next())
        .and_then(|h| h.parse().ok())
        .expect("the sheet's height in mm");
    let pages = (height / 297.0).round() as usize;
    assert_eq!(height, pages as f64 * 297.0, "whole A4 pages");
    assert_eq!(
        pages * COLUMNS * ROWS,
        places.last().map_or(0, |(at, w)| at + w),
        "pages"
    );
    let dir = tempfile::tempdir().unwrap();
    let svg_path = dir.path().join("labels.svg");
    std::fs::write(&svg_path, svg).unwrap();
    let svg_path = svg_path.to_str().unwrap();
    let mut found = Vec::new();
    for &(n, width) in places {
        let (page, at) = (n / (COLUMNS * ROWS), n % (COLUMNS * ROWS));
        let left = (at % COLUMNS) as f64 * 70.0;
        let top = page as f64 * 297.0 + 0.5 + (at / COLUMNS) as f64 * 37.0;
        let png = dir.path().join(format!("{n}.png"));
        let png = png.to_str().unwrap();
        let rendered = run(
            "rsvg-convert",
            "librsvg2-bin",
            &[
                "--dpi-x=300",
                "--dpi-y=300",
                &format!("--page-width={}mm", width * 70),
                "--page-height=37mm",
                &format!("--left=-{left}mm"),
                &format!("--top=-{top}mm"),
                "--background-color=white",
                "-o",
                png,
                svg_path,
            ],
        );
        assert!(
            rendered.status.success(),
            "{}",
            String::from_utf8_lossy(&rendered.stderr)
        );
        let read = run(
            "zbarimg",
            "zbar-tools",
            &[
                "--quiet",
                "-Sdisable",
                "-Sean13.enable",
                "-Supca.enable",
                "-Sean8.enable",
                "-Si25.enable",
                "-Scode128.enable",
                png,
            ],
        );
        // zbarimg exits 4 when it finds no symbol.
        assert!(
            matches!(read.status.code(), Some(0 | 4)),
            "zbarimg: {}",
            String::from_utf8_lossy(&read.stderr)
        );
        let lines: Vec<String> = String::from_utf8(read.stdout)
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
        assert!(
            lines.len() <= 1,
            "label {n} holds more than one code: {lines:?}"
        );
        found.push(lines.into_iter().next());
    }
    found
}

/// The sheet expected for `codes` (each with its label's width in places) each `copies`
/// times in a row: every place (number, width) with the code it holds. A label two or three
/// places wide never runs over the end of a row (the places it skips stay empty), and empty
/// places fill the last page.
fn sheet_of(codes: &[(&str, usize)], copies: usize) -> Vec<((usize, usize), Option<String>)> {
    let mut places = Vec::new();
    let mut at = 0;
    for &(code, width) in codes {
        for _ in 0..copies {
            while at % COLUMNS + width > COLUMNS {
                places.push(((at, 1), None));
                at += 1;
            }
            places.push(((at, width), Some(code.to_owned())));
            at += width;
        }
    }
    while at % (COLUMNS * ROWS) != 0 {
        places.push(((at, 1), None));
        at += 1;
    }
    places
}

/// Every place of `svg` reads as [`sheet_of`] expects for `codes` and `copies`.
fn assert_sheet(svg: &[u8], codes: &[(&str, usize)], copies: usize) {
    let expected = sheet_of(codes, copies);
    let places: Vec<(usize, usize)> = expected.iter().map(|(place, _)| *place).collect();
    let read = decoded(svg, &places);
    let codes: Vec<Option<String>> = expected.into_iter().map(|(_, code)| code).collect();
    assert_eq!(read, codes);
}

/// The longest SKU the contract allows, of every character it allows.
fn longest_sku() -> String {
    "Zz09._-".chars().cycle().take(64).collect()
}

#[tokio::test]
async fn every_code_on_a_label_sheet_decodes_exactly_once_per_label_and_copy() {
    let app = TestApp::spawn().await;
    app.set_profile(json!({ "currency": "EUR" })).await;
    let cat = app.category("Fish").await;
    let pets = [
        (
            pet(
                &app,
                cat,
                json!({ "name": "Goldie <&> \"Gold\"", "barcode": "4006381333931", "price": 2750 }),
            )
            .await,
            "EAN-13:4006381333931",
        ),
        (
            pet(
                &app,
                cat,
                json!({ "name": "Rex", "barcode": "036000291452", "price": 100 }),
            )
            .await,
            "UPC-A:036000291452",
        ),
        (
            pet(&app, cat, json!({ "name": "Nemo", "barcode": "96385074" })).await,
            "EAN-8:96385074",
        ),
        (
            pet(
                &app,
                cat,
                json!({ "name": "Case of food", "barcode": "10012345678902", "price": 9 }),
            )
            .await,
            "I2/5:10012345678902",
        ),
        (
            pet(
                &app,
                cat,
                json!({ "name": "Dory", "sku": "FISH-goldfish_0123.a", "barcode": null }),
            )
            .await,
            "CODE-128:FISH-goldfish_0123.a",
        ),
    ];
    // The longest SKU that fits one place, and the longest the contract allows (two places).
    let fits_one = "FISH-goldfish_0123.a-bcdefghi";
    let longest = longest_sku();
    let long = [
        (
            pet(&app, cat, json!({ "name": "Long", "sku": fits_one })).await,
            format!("CODE-128:{fits_one}"),
            1,
        ),
        (
            pet(&app, cat, json!({ "name": "Longest", "sku": longest })).await,
            format!("CODE-128:{longest}"),
            2,
        ),
    ];
    let ids: Vec<String> = pets
        .iter()
        .map(|(id, _)| id)
        .chain(long.iter().map(|(id, _, _)| id))
        .map(i64::to_string)
        .collect();
    // 7 pets times 6 copies: 36 labels in one place each, then 6 in two places, each on a row
    // of its own: 54 places, three A4 pages.
    let res = app
        .get(&format!("/store/labels.svg?ids={}&copies=6", ids.join(",")))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "content-type"), "image/svg+xml; charset=utf-8");
    assert_eq!(header(&res, "x-stability"), "beta");
    let svg = res.bytes().await.unwrap();
    let text = std::str::from_utf8(&svg).unwrap();
    assert!(text.contains("height=\"891mm\""), "three pages tall");
    assert_eq!(text.matches(">27.50 EUR<").count(), 6);
    assert_eq!(text.matches(">0.09 EUR<").count(), 6);
    assert_eq!(
        text.matches(">Goldie &lt;&amp;&gt; &quot;Gold&quot;<")
            .count(),
        6
    );

    let codes: Vec<(&str, usize)> = pets
        .iter()
        .map(|(_, code)| (*code, 1))
        .chain(long.iter().map(|(_, code, width)| (code.as_str(), *width)))
        .collect();
    assert_sheet(&svg, &codes, 6);
}

#[tokio::test]
async fn a_pet_listed_twice_prints_twice_and_copies_default_to_one() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let a = pet(&app, cat, json!({ "name": "A", "sku": "DOG-1" })).await;
    let b = pet(&app, cat, json!({ "name": "B", "barcode": "96385074" })).await;
    let res = app.get(&format!("/store/labels.svg?ids={a},{b},{a}")).await;
    assert_eq!(res.status(), 200);
    let svg = res.bytes().await.unwrap();
    let codes = [
        ("CODE-128:DOG-1", 1),
        ("EAN-8:96385074", 1),
        ("CODE-128:DOG-1", 1),
    ];
    assert_sheet(&svg, &codes, 1);
}

#[tokio::test]
async fn bad_ids_and_counts_outside_the_bounds_are_400() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let id = pet(&app, cat, json!({ "name": "A", "sku": "DOG-1" })).await;
    let many = |n: usize| vec![id.to_string(); n].join(",");
    for query in [
        String::new(),
        "?ids=".into(),
        "?ids=abc".into(),
        format!("?ids={id},0"),
        format!("?ids={id},-3"),
        format!("?ids={id}&copies=0"),
        format!("?ids={id}&copies=51"),
        format!("?ids={id}&copies=two"),
        format!("?ids={}", many(201)),
        format!("?ids={}&copies=50", many(21)),
        format!("?ids={id}&size=big"),
    ] {
        let res = app.get(&format!("/store/labels.svg{query}")).await;
        assert_error(res, 400, "bad_request").await;
    }
    // At the bounds: 200 pets once, 20 pets 50 times (1,000 labels).
    for query in [
        format!("?ids={}", many(200)),
        format!("?ids={}&copies=50", many(20)),
    ] {
        let res = app.get(&format!("/store/labels.svg{query}")).await;
        assert_eq!(res.status(), 200, "{query}");
        let svg = res.text().await.unwrap();
        assert!(svg.matches("<path ").count() >= 200);
    }
}

#[tokio::test]
async fn an_unknown_pet_is_422_unknown_pet_naming_it() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let id = pet(&app, cat, json!({ "name": "A", "sku": "DOG-1" })).await;
    let res = app.get(&format!("/store/labels.svg?ids={id},99999")).await;
    let message = assert_error_saying(res, 422, "unknown_pet", "99999").await;
    assert!(
        message.starts_with("ids "),
        "names the parameter: {message}"
    );
    assert!(!message.contains("petId"), "names no petId: {message}");
}

#[tokio::test]
async fn a_pet_with_neither_barcode_nor_sku_is_422_naming_it() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let coded = pet(&app, cat, json!({ "name": "A", "sku": "DOG-1" })).await;
    let bare = pet(&app, cat, json!({ "name": "B" })).await;
    let res = app
        .get(&format!("/store/labels.svg?ids={coded},{bare}"))
        .await;
    assert_error_saying(res, 422, "validation_failed", &format!("pet {bare}")).await;
}

#[tokio::test]
async fn a_readonly_key_prints_labels_and_no_key_is_401() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let id = pet(&app, cat, json!({ "name": "A", "sku": "DOG-1" })).await;
    let readonly = app.key("readonly", "free").await;
    let res = app
        .send_as(
            &readonly,
            Method::GET,
            &format!("/store/labels.svg?ids={id}"),
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = reqwest::get(app.url(&format!("/store/labels.svg?ids={id}")))
        .await
        .unwrap();
    assert_error(res, 401, "unauthorized").await;
}
