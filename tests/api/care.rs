//! The care log (interface 1.2): `POST /pets/{petId}/care` adds an entry, never changed or
//! deleted; `GET /pets/{petId}/care` pages it newest first; `GET /store/care/due` lists, for
//! pets not sold, the latest entry of each kind whose `dueOn` falls within N days.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::events::Feed;
use crate::support::{assert_error, body, header, ids_of, TestApp};

fn day(offset: i64) -> String {
    (chrono::Local::now().date_naive() + chrono::Duration::days(offset)).to_string()
}

async fn animal(app: &TestApp, name: &str) -> i64 {
    let category = app.category(&format!("{name} kind")).await;
    app.pet(name, category)
        .with("animal", json!({ "sex": "female" }))
        .create()
        .await
}

async fn care(app: &TestApp, pet: i64, entry: Value) -> Value {
    let res = app.post(&format!("/pets/{pet}/care"), entry.clone()).await;
    assert_eq!(res.status(), 201, "{entry}");
    body(res).await
}

async fn due(app: &TestApp, query: &str) -> Vec<Value> {
    app.get_json(&format!("/store/care/due{query}"))
        .await
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test]
async fn a_care_entry_is_recorded_with_who_and_when_and_announced() {
    let app = TestApp::spawn().await;
    let pet = animal(&app, "Bella").await;
    let mut feed = Feed::open(&app, Some(0)).await;
    let res = app
        .post(
            &format!("/pets/{pet}/care"),
            json!({ "kind": "vaccination", "product": "Nobivac DHP", "note": "left flank",
                    "dueOn": day(365) }),
        )
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(header(&res, "x-stability"), "beta");
    let entry = body(res).await;
    assert_eq!(entry["petId"], pet);
    assert_eq!(entry["kind"], "vaccination");
    assert_eq!(entry["product"], "Nobivac DHP");
    assert_eq!(entry["note"], "left flank");
    assert_eq!(entry["dueOn"], day(365));
    assert_eq!(entry["weightGrams"], Value::Null);
    assert!(entry["at"].as_str().unwrap().ends_with('Z'));
    assert!(entry["id"].as_i64().unwrap() > 0);
    for field in ["keyName", "staffId"] {
        assert!(entry.as_object().unwrap().contains_key(field), "{entry}");
    }
    let mut recorded = None;
    for _ in 0..40 {
        let message = feed.next(Duration::from_secs(10)).await;
        if message.event == "care.recorded" {
            recorded = Some(message.data);
            break;
        }
    }
    assert_eq!(recorded.expect("a care.recorded event")["data"], entry);
}

#[tokio::test]
async fn a_bad_care_entry_is_refused_naming_its_field() {
    let app = TestApp::spawn().await;
    let pet = animal(&app, "Rex").await;
    for (entry, field) in [
        (json!({}), "kind"),
        (json!({ "kind": "groomed" }), "kind"),
        (json!({ "kind": "weight", "weightGrams": 0 }), "weightGrams"),
        (
            json!({ "kind": "weight", "weightGrams": 200_001 }),
            "weightGrams",
        ),
        (json!({ "kind": "note", "note": "n".repeat(1001) }), "note"),
        (
            json!({ "kind": "treatment", "product": "p".repeat(101) }),
            "product",
        ),
        (
            json!({ "kind": "treatment", "dueOn": "next week" }),
            "dueOn",
        ),
    ] {
        let res = app.post(&format!("/pets/{pet}/care"), entry.clone()).await;
        let message = assert_error(res, 422, "validation_failed").await;
        assert!(message.starts_with(field), "{entry}: {message}");
    }
    let res = app
        .post(
            &format!("/pets/{pet}/care"),
            json!({ "kind": "fed", "by": "me" }),
        )
        .await;
    assert_error(res, 400, "bad_request").await;
    let res = app
        .post("/pets/999999/care", json!({ "kind": "fed" }))
        .await;
    assert_error(res, 404, "not_found").await;
    // The longest note and product, the heaviest weight, are accepted.
    care(
        &app,
        pet,
        json!({ "kind": "weight", "weightGrams": 200_000, "note": "n".repeat(1000),
                "product": "p".repeat(100) }),
    )
    .await;
    // `null` is the same as leaving a field out, as the document says.
    let entry = care(
        &app,
        pet,
        json!({ "kind": "treatment", "note": null, "product": null, "weightGrams": null,
                "dueOn": null }),
    )
    .await;
    for field in ["note", "product", "weightGrams", "dueOn"] {
        assert_eq!(entry[field], Value::Null, "{entry}");
    }
    let log = app.get_json(&format!("/pets/{pet}/care")).await;
    assert_eq!(log.as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn the_log_is_paged_newest_first_filtered_by_kind_and_never_changed() {
    let app = TestApp::spawn().await;
    let pet = animal(&app, "Milo").await;
    let mut ids = Vec::new();
    for kind in ["fed", "health_check", "fed", "weight", "fed"] {
        let mut entry = json!({ "kind": kind });
        if kind == "weight" {
            entry["weightGrams"] = json!(2_400);
        }
        ids.push(care(&app, pet, entry).await["id"].as_i64().unwrap());
    }
    let res = app.get(&format!("/pets/{pet}/care?limit=2")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-total-count"), "5");
    let page = ids_of(&body(res).await);
    assert_eq!(page, vec![ids[4], ids[3]]);
    let res = app.get(&format!("/pets/{pet}/care?kind=fed")).await;
    assert_eq!(header(&res, "x-total-count"), "3");
    let fed = ids_of(&body(res).await);
    assert_eq!(fed, vec![ids[4], ids[2], ids[0]]);
    let res = app.get(&format!("/pets/{pet}/care?kind=groomed")).await;
    assert_error(res, 400, "bad_request").await;
    assert_error(app.get("/pets/999999/care").await, 404, "not_found").await;

    // There is no way to change or delete an entry.
    for method in [Method::PUT, Method::PATCH, Method::DELETE] {
        let res = app
            .send_json(
                method.clone(),
                &format!("/pets/{pet}/care"),
                json!({ "kind": "fed" }),
            )
            .await;
        assert_eq!(res.status(), 405, "{method}");
    }
    // A readonly key reads the log but cannot add to it.
    let readonly = app.key("readonly", "free").await;
    let res = app
        .send_as(&readonly, Method::GET, &format!("/pets/{pet}/care"))
        .await;
    assert_eq!(res.status(), 200);
    let res = app
        .request_as(&readonly, Method::POST, &format!("/pets/{pet}/care"))
        .json(&json!({ "kind": "fed" }))
        .send()
        .await
        .unwrap();
    assert_error(res, 403, "forbidden").await;
    // An animal with care entries is kept.
    let res = app.delete(&format!("/pets/{pet}")).await;
    assert_error(res, 409, "conflict").await;
}

#[tokio::test]
async fn care_falls_due_by_the_latest_entry_of_each_kind_earliest_first() {
    let app = TestApp::spawn().await;
    let bella = animal(&app, "Bella").await;
    let milo = animal(&app, "Milo").await;
    let sold = animal(&app, "Sunny").await;

    // Bella's vaccination was due three days ago; a later one replaces it, due in a year.
    care(
        &app,
        bella,
        json!({ "kind": "vaccination", "dueOn": day(-3) }),
    )
    .await;
    // Milo's treatment is due in 5 days, his check in 20.
    let treatment = care(&app, milo, json!({ "kind": "treatment", "dueOn": day(5) })).await;
    care(
        &app,
        milo,
        json!({ "kind": "health_check", "dueOn": day(20) }),
    )
    .await;
    // A sold pet's care is not due any more.
    care(
        &app,
        sold,
        json!({ "kind": "vaccination", "dueOn": day(-10) }),
    )
    .await;
    app.set_status(sold, "sold").await;

    let list = due(&app, "").await;
    assert_eq!(list.len(), 2, "{list:?}");
    assert_eq!(list[0]["petId"], bella);
    assert_eq!(list[0]["name"], "Bella");
    assert_eq!(list[0]["kind"], "vaccination");
    assert_eq!(list[0]["dueOn"], day(-3));
    assert_eq!(list[0]["overdueDays"], 3);
    assert_eq!(list[1]["petId"], milo);
    assert_eq!(list[1]["overdueDays"], -5);
    assert_eq!(list[1]["lastAt"], treatment["at"]);

    assert_eq!(due(&app, "?within=20").await.len(), 3);
    assert_eq!(due(&app, "?within=0").await.len(), 1);

    // A later entry of the same kind replaces the earlier, with or without a dueOn.
    care(
        &app,
        bella,
        json!({ "kind": "vaccination", "dueOn": day(365) }),
    )
    .await;
    care(&app, milo, json!({ "kind": "treatment" })).await;
    assert_eq!(due(&app, "").await.len(), 0);
    assert_eq!(due(&app, "?within=60").await.len(), 1);

    for bad in ["?within=61", "?within=-1", "?within=soon", "?days=3"] {
        assert_error(
            app.get(&format!("/store/care/due{bad}")).await,
            400,
            "bad_request",
        )
        .await;
    }
}

/// Today in the time zone `tz`, as the store counts days.
fn today_in(tz: chrono_tz::Tz) -> chrono::NaiveDate {
    chrono::Utc::now().with_timezone(&tz).date_naive()
}

async fn patch(app: &TestApp, path: &str, change: Value) {
    let res = app.send_json(Method::PATCH, path, change.clone()).await;
    assert_eq!(res.status(), 200, "{path} {change}");
}

#[tokio::test]
async fn what_falls_due_follows_every_change_to_its_pets_their_care_and_the_stores_day() {
    let app = TestApp::spawn().await;
    let bella = animal(&app, "Bella").await;
    let due_on = day(-1);
    care(
        &app,
        bella,
        json!({ "kind": "vaccination", "dueOn": due_on }),
    )
    .await;
    let first = due(&app, "").await;
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(first[0]["name"], "Bella");
    // Asked again with nothing changed: the same answer.
    assert_eq!(due(&app, "").await, first);

    // The pet's new name.
    patch(
        &app,
        &format!("/pets/{bella}"),
        json!({ "name": "Bella Rose" }),
    )
    .await;
    let renamed = due(&app, "").await;
    assert_eq!(renamed.len(), 1, "{renamed:?}");
    assert_eq!(renamed[0]["name"], "Bella Rose");

    // Sold, it is not due; back for sale, it is again.
    patch(&app, &format!("/pets/{bella}"), json!({ "status": "sold" })).await;
    assert_eq!(due(&app, "").await, Vec::<Value>::new());
    patch(
        &app,
        &format!("/pets/{bella}"),
        json!({ "status": "available" }),
    )
    .await;
    assert_eq!(due(&app, "").await.len(), 1);

    // The store's day decides how overdue it is: 25 hours apart, these two zones are never
    // on the same date.
    let mut overdue = Vec::new();
    for zone in [
        chrono_tz::Pacific::Kiritimati,
        chrono_tz::Pacific::Pago_Pago,
    ] {
        patch(&app, "/store/profile", json!({ "timezone": zone.name() })).await;
        let list = due(&app, "").await;
        let expected = (today_in(zone) - due_on.parse::<chrono::NaiveDate>().unwrap()).num_days();
        assert_eq!(list.len(), 1, "{zone}: {list:?}");
        assert_eq!(list[0]["overdueDays"], expected, "{zone}");
        overdue.push(expected);
    }
    assert_ne!(overdue[0], overdue[1]);

    // A later entry of the kind without a due date: nothing is due.
    care(&app, bella, json!({ "kind": "vaccination" })).await;
    assert_eq!(due(&app, "?within=60").await, Vec::<Value>::new());
}
