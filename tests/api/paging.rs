//! Lists: `X-Total-Count`, RFC 8288 `Link` pages that keep their filters, bounds on
//! `limit`, `offset` and `ids`, sorting, and refusing unknown parameters.

use serde_json::Value;

use crate::support::{assert_error, assert_error_saying, body, header, ids_of, TestApp};

/// Seven pets in one category named so that name order differs from id order.
async fn seven_pets(app: &TestApp) -> (i64, Vec<i64>) {
    let cat = app.category("Dogs").await;
    let mut created = Vec::new();
    for name in [
        "delta", "Alpha", "golf", "Charlie", "bravo", "foxtrot", "Echo",
    ] {
        created.push(app.pet_with_stock(name, cat, 0).await);
    }
    (cat, created)
}

#[tokio::test]
async fn the_default_page_holds_fifty_and_reports_the_total() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    for i in 0..55 {
        app.pet_with_stock(&format!("Pet {i}"), cat, 0).await;
    }
    let res = app.get("/pets").await;
    assert_eq!(header(&res, "x-total-count"), "55");
    assert_eq!(
        header(&res, "link"),
        "</pets?limit=50&offset=50>; rel=\"next\""
    );
    assert_eq!(body(res).await.as_array().unwrap().len(), 50);
}

#[tokio::test]
async fn pages_link_to_next_and_prev_and_keep_the_filters() {
    let app = TestApp::spawn().await;
    let (cat, created) = seven_pets(&app).await;

    let res = app
        .get(&format!("/pets?categoryId={cat}&q=o&limit=2"))
        .await;
    // names containing "o": golf, bravo, foxtrot, Echo
    assert_eq!(header(&res, "x-total-count"), "4");
    assert_eq!(
        header(&res, "link"),
        format!("</pets?categoryId={cat}&q=o&limit=2&offset=2>; rel=\"next\"")
    );
    assert_eq!(ids_of(&body(res).await), vec![created[2], created[4]]);

    let res = app
        .get(&format!("/pets?categoryId={cat}&q=o&limit=2&offset=2"))
        .await;
    assert_eq!(
        header(&res, "link"),
        format!("</pets?categoryId={cat}&q=o&limit=2&offset=0>; rel=\"prev\"")
    );
    assert_eq!(ids_of(&body(res).await), vec![created[5], created[6]]);

    let res = app.get("/pets?limit=3&offset=3&sort=-id").await;
    assert_eq!(header(&res, "x-total-count"), "7");
    assert_eq!(
        header(&res, "link"),
        "</pets?sort=-id&limit=3&offset=6>; rel=\"next\", </pets?sort=-id&limit=3&offset=0>; rel=\"prev\""
    );
    assert_eq!(
        ids_of(&body(res).await),
        vec![created[3], created[2], created[1]]
    );
}

#[tokio::test]
async fn following_next_links_visits_every_record_once() {
    let app = TestApp::spawn().await;
    let (_, created) = seven_pets(&app).await;
    let mut seen = Vec::new();
    let mut next = Some("/pets?sort=name&limit=3".to_owned());
    while let Some(path) = next.take() {
        let res = app.get(&path).await;
        assert_eq!(res.status(), 200);
        next = res.headers().get("link").and_then(|l| {
            let l = l.to_str().unwrap();
            l.split(", ")
                .find(|part| part.ends_with("rel=\"next\""))
                .map(|part| part[1..part.find('>').unwrap()].to_owned())
        });
        seen.extend(ids_of(&body(res).await));
    }
    let mut expected = created.clone();
    expected.sort();
    let mut sorted = seen.clone();
    sorted.sort();
    assert_eq!(sorted, expected);
}

#[tokio::test]
async fn a_page_past_the_end_is_empty_with_the_total_and_a_prev_link() {
    let app = TestApp::spawn().await;
    seven_pets(&app).await;
    let res = app.get("/pets?offset=100&limit=10").await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-total-count"), "7");
    assert_eq!(
        header(&res, "link"),
        "</pets?limit=10&offset=90>; rel=\"prev\""
    );
    assert_eq!(body(res).await, serde_json::json!([]));
}

#[tokio::test]
async fn a_single_page_has_no_link_header() {
    let app = TestApp::spawn().await;
    seven_pets(&app).await;
    let res = app.get("/pets?limit=7").await;
    assert!(res.headers().get("link").is_none());
    assert_eq!(header(&res, "x-total-count"), "7");
}

#[tokio::test]
async fn limit_and_offset_outside_their_bounds_are_bad_request() {
    let app = TestApp::spawn().await;
    for query in [
        "limit=0",
        "limit=501",
        "limit=-5",
        "offset=-1",
        "limit=abc",
        "offset=1.5",
        "limit=",
    ] {
        for base in ["/pets", "/categories", "/store/orders", "/store/inventory"] {
            let message = assert_error(
                app.get(&format!("{base}?{query}")).await,
                400,
                "bad_request",
            )
            .await;
            assert!(
                message.contains("limit") || message.contains("offset"),
                "{message}"
            );
        }
    }
    assert_eq!(app.get("/pets?limit=1").await.status(), 200);
    assert_eq!(app.get("/pets?limit=500&offset=0").await.status(), 200);
}

#[tokio::test]
async fn pets_sort_by_name_either_way_ignoring_case_and_by_id_descending() {
    let app = TestApp::spawn().await;
    let (_, c) = seven_pets(&app).await;
    // delta, Alpha, golf, Charlie, bravo, foxtrot, Echo
    let by_name = vec![c[1], c[4], c[3], c[0], c[6], c[5], c[2]];
    assert_eq!(ids_of(&app.get_json("/pets?sort=name").await), by_name);
    let mut reversed = by_name.clone();
    reversed.reverse();
    assert_eq!(ids_of(&app.get_json("/pets?sort=-name").await), reversed);
    let mut by_id_desc = c.clone();
    by_id_desc.reverse();
    assert_eq!(ids_of(&app.get_json("/pets?sort=-id").await), by_id_desc);
    assert_eq!(ids_of(&app.get_json("/pets?sort=id").await), c);
    assert_error(app.get("/pets?sort=NAME").await, 400, "bad_request").await;
}

#[tokio::test]
async fn ids_accepts_a_hundred_and_refuses_a_hundred_and_one() {
    let app = TestApp::spawn().await;
    let (_, c) = seven_pets(&app).await;
    let hundred: Vec<String> = (1..=100).map(|i| i.to_string()).collect();
    let res = app.get(&format!("/pets?ids={}", hundred.join(","))).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-total-count"), "7");
    let mut all = c.clone();
    all.sort();
    assert_eq!(ids_of(&body(res).await), all);

    let hundred_one: Vec<String> = (1..=101).map(|i| i.to_string()).collect();
    assert_error_saying(
        app.get(&format!("/pets?ids={}", hundred_one.join(",")))
            .await,
        400,
        "bad_request",
        "ids",
    )
    .await;
    for bad in ["0", "-1", "x", "1,,2", ""] {
        assert_error(
            app.get(&format!("/pets?ids={bad}")).await,
            400,
            "bad_request",
        )
        .await;
    }
}

#[tokio::test]
async fn an_unknown_or_repeated_query_parameter_is_bad_request() {
    let app = TestApp::spawn().await;
    for path in [
        "/pets?limt=5",
        "/pets?name=Rex",
        "/pets?limit=5&limit=6",
        "/categories?status=available",
        "/store/orders?status=sold",
        "/store/inventory?q=x",
        "/store/inventory/1/adjustments?source=order",
        "/admin/keys?role=admin",
    ] {
        let message = assert_error(app.get(path).await, 400, "bad_request").await;
        assert!(message.contains("query parameter"), "{path}: {message}");
    }
}

/// The page the `Link` header's `rel="next"` points to, as a path.
fn next_link(res: &reqwest::Response) -> Option<String> {
    let link = res.headers().get("link")?.to_str().ok()?.to_owned();
    link.split(", ")
        .find(|l| l.ends_with("rel=\"next\""))
        .map(|l| l[1..l.find('>').unwrap()].to_owned())
}

#[tokio::test]
async fn deep_pages_reached_by_next_links_match_the_same_offsets_read_cold_and_follow_changes() {
    let app = TestApp::spawn().await;
    let cat = app.category("Dogs").await;
    let mut created = Vec::new();
    for i in 0..23 {
        created.push(app.pet_with_stock(&format!("Pet {i}"), cat, 0).await);
    }
    // Walk by next links (each page's end is remembered as the next page's start).
    let mut walked = Vec::new();
    let mut path = Some("/pets?limit=5".to_owned());
    while let Some(p) = path {
        let res = app.get(&p).await;
        assert_eq!(header(&res, "x-total-count"), "23", "{p}");
        path = next_link(&res);
        walked.extend(ids_of(&body(res).await));
    }
    assert_eq!(walked, created);
    // The same offsets again (now answered from the remembered starts) and off the grid.
    for offset in [5, 10, 12, 20, 22, 23, 30] {
        let res = app.get(&format!("/pets?limit=5&offset={offset}")).await;
        let expected: Vec<i64> = created.iter().skip(offset).take(5).copied().collect();
        assert_eq!(ids_of(&body(res).await), expected, "offset {offset}");
    }
    // A change moves every later page: removing the 3rd pet and adding one at the end.
    app.delete(&format!("/pets/{}", created[2])).await;
    created.remove(2);
    created.push(app.pet_with_stock("Pet last", cat, 0).await);
    for offset in [5, 10, 15, 20] {
        let res = app.get(&format!("/pets?limit=5&offset={offset}")).await;
        assert_eq!(header(&res, "x-total-count"), "23");
        let expected: Vec<i64> = created.iter().skip(offset).take(5).copied().collect();
        assert_eq!(
            ids_of(&body(res).await),
            expected,
            "offset {offset} after a change"
        );
    }
    // A filtered list remembers its own total, and follows a change of status.
    let res = app.get("/pets?status=available&limit=5").await;
    let before = header(&res, "x-total-count").parse::<i64>().unwrap();
    let pet = created[0];
    let res = app
        .send_json(
            reqwest::Method::PATCH,
            &format!("/pets/{pet}"),
            serde_json::json!({"status": "sold"}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let res = app.get("/pets?status=available&limit=5").await;
    assert_eq!(header(&res, "x-total-count"), (before - 1).to_string());
    let res = app.get(&format!("/pets?ids={pet}")).await;
    assert_eq!(
        body(res).await[0]["status"],
        "sold",
        "a read by id follows a change too"
    );
}

#[tokio::test]
async fn the_after_cursor_walks_a_list_and_only_its_users_see_it_in_links() {
    let app = TestApp::spawn().await;
    let (_, created) = seven_pets(&app).await;
    let res = app
        .get(&format!("/pets?limit=3&after={}", created[0]))
        .await;
    assert_eq!(header(&res, "x-total-count"), "7");
    assert_eq!(
        header(&res, "link"),
        format!("</pets?limit=3&after={}>; rel=\"next\"", created[3])
    );
    assert_eq!(ids_of(&body(res).await), created[1..4].to_vec());
    let res = app
        .get(&format!("/pets?limit=4&after={}", created[3]))
        .await;
    assert!(
        res.headers().get("link").is_none(),
        "a short page ends the walk"
    );
    assert_eq!(ids_of(&body(res).await), created[4..7].to_vec());
    // Descending, and past a record that no longer exists.
    app.delete(&format!("/pets/{}", created[4])).await;
    let res = app
        .get(&format!("/pets?sort=-id&limit=2&after={}", created[4]))
        .await;
    assert_eq!(
        header(&res, "link"),
        format!(
            "</pets?sort=-id&limit=2&after={}>; rel=\"next\"",
            created[2]
        )
    );
    assert_eq!(ids_of(&body(res).await), vec![created[3], created[2]]);
    // Offset clients never see it.
    let res = app.get("/pets?limit=3").await;
    assert_eq!(
        header(&res, "link"),
        "</pets?limit=3&offset=3>; rel=\"next\""
    );
    // Orders, categories and inventory take it too.
    for path in [
        "/store/orders?after=1",
        "/categories?after=1",
        "/store/inventory?after=1",
    ] {
        assert_eq!(app.get(path).await.status(), 200, "{path}");
    }
    assert_error(app.get("/pets?after=0").await, 400, "bad_request").await;
    assert_error(
        app.get("/store/inventory/1/adjustments?after=1").await,
        400,
        "bad_request",
    )
    .await;
}

#[tokio::test]
async fn an_offset_beside_the_cursor_counts_on_from_it_and_the_next_link_drops_it() {
    let app = TestApp::spawn().await;
    let (_, created) = seven_pets(&app).await;
    let res = app
        .get(&format!("/pets?limit=2&after={}&offset=2", created[0]))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        header(&res, "link"),
        format!("</pets?limit=2&after={}>; rel=\"next\"", created[4])
    );
    assert_eq!(ids_of(&body(res).await), vec![created[3], created[4]]);
}

#[tokio::test]
async fn the_cursor_in_a_name_order_starts_after_its_record_and_a_deleted_one_is_not_found() {
    let app = TestApp::spawn().await;
    let (_, created) = seven_pets(&app).await;
    // Name order: Alpha(1) bravo(4) Charlie(3) delta(0) Echo(6) foxtrot(5) golf(2).
    let names = |v: Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let res = app
        .get(&format!("/pets?sort=name&limit=3&after={}", created[3]))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "x-total-count"), "7");
    assert_eq!(names(body(res).await), ["delta", "Echo", "foxtrot"]);
    let res = app
        .get(&format!("/pets?sort=-name&limit=2&after={}", created[3]))
        .await;
    assert_eq!(names(body(res).await), ["bravo", "Alpha"]);
    assert_eq!(
        app.delete(&format!("/pets/{}", created[3])).await.status(),
        204
    );
    assert_error(
        app.get(&format!("/pets?sort=name&after={}", created[3]))
            .await,
        404,
        "not_found",
    )
    .await;
}
