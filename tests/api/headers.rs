//! Security headers: every answer (the staff UI and its files, the docs page, the document,
//! JSON answers, errors and 304s) says what a browser may load and run (CSP, with no framing),
//! not to guess content types, and not to frame it.

use crate::support::{header, TestApp};

/// The headers every answer carries, whatever made it.
fn assert_guarded(res: &reqwest::Response, what: &str) {
    let csp = header(res, "content-security-policy");
    let directives: Vec<&str> = csp.split(';').map(str::trim).collect();
    for wanted in [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ] {
        assert!(
            directives.contains(&wanted),
            "{what}: no {wanted:?} in {csp}"
        );
    }
    assert!(
        !csp.contains("http:") && !csp.contains("https:") && !csp.contains('*'),
        "{what}: nothing is loaded from elsewhere: {csp}"
    );
    assert_eq!(header(res, "x-content-type-options"), "nosniff", "{what}");
    assert_eq!(header(res, "x-frame-options"), "DENY", "{what}");
}

#[tokio::test]
async fn the_ui_the_docs_and_every_json_answer_carry_the_security_headers() {
    let app = TestApp::spawn().await;
    let client = reqwest::Client::new();
    let keyless = |path: &str| client.get(app.url(path)).send();

    for (path, status, kind) in [
        ("/", 200, "text/html"),
        ("/ui/app.js", 200, "text/javascript"),
        ("/ui/style.css", 200, "text/css"),
        ("/ui/manifest.webmanifest", 200, "application/manifest+json"),
        ("/ui/icons/till-192.png", 200, "image/png"),
        ("/sw.js", 200, "text/javascript"),
        ("/docs", 200, "text/html"),
        ("/openapi.json", 200, "application/json"),
        ("/health", 200, "application/json"),
        ("/pets", 401, "application/json"),
        ("/nothing-here", 404, "application/json"),
    ] {
        let res = keyless(path).await.unwrap();
        assert_eq!(res.status(), status, "{path}");
        assert!(header(&res, "content-type").starts_with(kind), "{path}");
        assert_guarded(&res, path);
    }

    let res = app.get("/pets").await;
    assert_eq!(res.status(), 200);
    assert_guarded(&res, "GET /pets with a key");
    let res = app.delete("/health").await;
    assert_eq!(res.status(), 405);
    assert_guarded(&res, "a 405 the framework made");

    // A revalidated file (304) is guarded too.
    let first = keyless("/ui/app.js").await.unwrap();
    let etag = header(&first, "etag");
    let again = client
        .get(app.url("/ui/app.js"))
        .header("If-None-Match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_guarded(&again, "a 304");
}

#[tokio::test]
async fn the_ui_and_the_docs_pages_run_no_inline_script_so_the_policy_holds() {
    let app = TestApp::spawn().await;
    for path in ["/", "/docs"] {
        let html = reqwest::get(app.url(path))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let scripts: Vec<&str> = html.split("<script").skip(1).collect();
        assert!(!scripts.is_empty(), "{path} loads its script");
        for tag in scripts {
            let opening = &tag[..tag.find('>').unwrap()];
            assert!(
                opening.contains("src="),
                "{path}: an inline script: <script{opening}>"
            );
        }
        assert!(!html.contains(" onclick="), "{path}: an inline handler");
        for elsewhere in [
            "src=\"http",
            "href=\"http",
            "src='http",
            "href='http",
            "url(http",
        ] {
            assert!(
                !html.contains(elsewhere),
                "{path}: a file from elsewhere ({elsewhere})"
            );
        }
    }
}
