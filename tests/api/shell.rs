//! The till's offline shell: `/sw.js` opens with the manifest of every file the worker keeps
//! before a till can start offline, so a module the page loads late is kept all the same.

use std::path::Path;

use crate::support::{header, TestApp};

/// The manifest `/sw.js` opens with, and the whole answer.
async fn manifest(app: &TestApp) -> (serde_json::Value, reqwest::Response) {
    let res = reqwest::get(app.url("/sw.js")).await.unwrap();
    assert_eq!(res.status(), 200);
    let res_headers = res.headers().clone();
    let text = res.text().await.unwrap();
    let first = text.lines().next().unwrap();
    let json = first
        .strip_prefix("self.PETSTORE_SHELL = ")
        .and_then(|s| s.strip_suffix(';'))
        .unwrap_or_else(|| panic!("/sw.js opens with the manifest, not {first:?}"));
    let again = reqwest::Client::new()
        .get(app.url("/sw.js"))
        .header("If-None-Match", res_headers["etag"].to_str().unwrap())
        .send()
        .await
        .unwrap();
    (serde_json::from_str(json).unwrap(), again)
}

/// Every file under `dir`, as the path the server answers it at.
fn ui_files(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            ui_files(&path, out);
        } else if path.extension().is_some_and(|e| {
            ["js", "css", "png", "svg", "html", "webmanifest"]
                .contains(&e.to_string_lossy().as_ref())
        }) {
            let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("ui");
            let rel = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push(format!("/ui/{rel}"));
        }
    }
}

#[tokio::test]
async fn the_shell_worker_lists_every_file_of_the_ui_and_each_answers() {
    let app = TestApp::spawn().await;
    let (shell, revalidated) = manifest(&app).await;
    assert_eq!(
        revalidated.status(),
        304,
        "the worker answers 304 to its own ETag"
    );

    let files: Vec<&str> = shell["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    let version = shell["version"].as_str().unwrap();
    assert_eq!(version.len(), 16, "{version}");
    assert!(version.chars().all(|c| c.is_ascii_hexdigit()), "{version}");
    assert_eq!(files[0], "/", "the page itself comes first");

    // Every module, style, icon and the manifest: a module only some page imports is kept too.
    let mut on_disk = Vec::new();
    ui_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("ui"),
        &mut on_disk,
    );
    for path in &on_disk {
        let served_elsewhere =
            ["/ui/index.html", "/ui/pair.html", "/ui/sw.js"].contains(&path.as_str());
        assert_eq!(
            !served_elsewhere,
            files.contains(&path.as_str()),
            "{path} in {files:?}"
        );
    }
    assert!(files.contains(&"/ui/till/till.css"));
    assert!(files.contains(&"/ui/till/outbox.js"));
    assert!(files.contains(&"/ui/icons/till-512.png"));

    // The worker's install keeps them all or none: each answers, without a key.
    for path in &files {
        let res = reqwest::get(app.url(path)).await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        assert!(!header(&res, "etag").is_empty(), "{path}");
    }
}
