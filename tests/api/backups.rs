//! Backups: taken on schedule and pruned, taken and downloaded by an admin, never seen
//! half-written, and restored with `petstore restore` (the built binary, as a user runs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{json, Value};
use tempfile::TempDir;

use crate::program::petstore_without_settings;
use crate::support::{assert_error, body, header, sqlite_only, TestApp};

/// Runs the `petstore` binary against the store `db`, with no other `PETSTORE_*` setting.
fn petstore(db: &Path, args: &[&str]) -> Output {
    petstore_command(db, args).output().unwrap()
}

fn petstore_command(db: &Path, args: &[&str]) -> Command {
    let mut command = petstore_without_settings();
    command
        .args(args)
        .env("PETSTORE_DB", db)
        .env("PETSTORE_LOG", "warn");
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The names in a `GET /admin/backups` answer, in order.
async fn listed(app: &TestApp) -> Vec<String> {
    app.get_json("/admin/backups")
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Why the backup tests skip a PostgreSQL store.
const BACKED_UP_BY_PG_DUMP: &str = "a PostgreSQL store is backed up with pg_dump, not by petstore";

/// A server on an SQLite store holding one pet with `stock` units in a new category, and the
/// category's id; `None` on PostgreSQL.
async fn sqlite_shop_with(category: &str, pet: &str, stock: i64) -> Option<(TestApp, i64)> {
    if !sqlite_only(BACKED_UP_BY_PG_DUMP) {
        return None;
    }
    let app = TestApp::spawn().await;
    let cat = app.category(category).await;
    app.pet_with_stock(pet, cat, stock).await;
    Some((app, cat))
}

/// Asks for a backup now: `POST /admin/backups` with the admin key.
async fn post_backup(app: &TestApp) -> reqwest::Response {
    app.request(Method::POST, "/admin/backups")
        .send()
        .await
        .unwrap()
}

/// Takes a backup through the API and answers what it says of it.
async fn take_backup(app: &TestApp) -> Value {
    body(post_backup(app).await).await
}

/// Takes a backup through the API and answers the path of its file.
async fn backup_file(app: &TestApp) -> PathBuf {
    let taken = take_backup(app).await;
    app.dir
        .path()
        .join("backups")
        .join(taken["name"].as_str().unwrap())
}

/// The names of the files in `dir`.
fn file_names(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// The stores a restore kept aside in `dir` (`store.before-restore-…`).
fn kept_stores(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("store.before-restore-"))
        .collect()
}

/// Runs `petstore restore file` on the store `db` and asserts that it fails saying `says`;
/// answers what it said.
fn assert_restore_refused(db: &Path, file: &Path, says: &str) -> String {
    let out = petstore(db, &["restore", file.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{} was restored", file.display());
    assert!(err.contains(says), "{}: {err}", file.display());
    err
}

/// The folder of a stopped server whose SQLite store holds one pet, Jerry; the store's file
/// and its bytes. `None` on PostgreSQL.
async fn stopped_store_with_jerry() -> Option<(Arc<TempDir>, PathBuf, Vec<u8>)> {
    let (app, _) = sqlite_shop_with("Mice", "Jerry", 1).await?;
    let dir = app.stop().await;
    let db = dir.path().join("store.sqlite");
    let before = std::fs::read(&db).unwrap();
    Some((dir, db, before))
}

/// The store `db` in `dir` is `before` to the byte, and a server started on it serves Jerry.
async fn assert_store_untouched(dir: Arc<TempDir>, db: &Path, before: &[u8]) {
    assert_eq!(std::fs::read(db).unwrap(), before, "the store is untouched");
    let app = TestApp::builder().dir(dir).spawn().await;
    assert_eq!(app.get_json("/pets").await[0]["name"], "Jerry");
}

/// `PRAGMA integrity_check` and the pet names of an SQLite file.
fn pets_in(file: &Path) -> (String, Vec<String>) {
    let conn =
        rusqlite::Connection::open_with_flags(file, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    let mut stmt = conn.prepare("SELECT name FROM pets ORDER BY id").unwrap();
    let names = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<Vec<String>, _>>()
        .unwrap();
    (check, names)
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[tokio::test]
async fn backups_are_taken_on_schedule_and_pruned_to_the_kept_count() {
    if !sqlite_only(BACKED_UP_BY_PG_DUMP) {
        return;
    }
    let app = TestApp::builder()
        .args(|a| {
            a.backup_every = 1.0 / 3600.0; // one second
            a.backup_keep = 2;
        })
        .spawn()
        .await;
    let cat = app.category("Fish").await;
    app.pet_with_stock("Nemo", cat, 3).await;
    let folder = app.dir.path().join("backups");
    let mut seen = std::collections::BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while seen.len() < 4 {
        assert!(
            Instant::now() < deadline,
            "only {} scheduled backups in 20 s: {seen:?}",
            seen.len()
        );
        let names = listed(&app).await;
        // A new backup is named before the oldest is removed: never more than one extra.
        assert!(names.len() <= 3, "pruned to 2, but {names:?} are listed");
        seen.extend(names);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let db = app.db_path();
    let _dir = app.stop().await; // the schedule stops with the server; keep the folder
    let mut names = file_names(&folder);
    names.sort();
    assert_eq!(names.len(), 2, "the newest 2 are kept: {names:?}");
    let first = seen.iter().next().unwrap();
    assert!(!names.contains(first), "the oldest, {first}, was removed");
    for name in &names {
        let file = folder.join(name);
        assert!(name.starts_with("petstore-") && name.ends_with(".sqlite"));
        let (check, pets) = pets_in(&file);
        assert_eq!(check, "ok");
        assert_eq!(pets, ["Nemo"]);
        #[cfg(unix)]
        assert_eq!(mode(&file), 0o600, "{name} is readable by the owner only");
    }
    #[cfg(unix)]
    {
        assert_eq!(mode(&folder), 0o700, "the backup folder is private");
        assert_eq!(mode(&db), 0o600, "the store is private");
    }
}

#[cfg(unix)]
#[test]
fn a_new_store_and_the_folders_made_for_it_are_readable_by_the_owner_only() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("shop").join("data").join("store.sqlite");
    let out = petstore(&db, &["keys", "list"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(mode(&db), 0o600);
    assert_eq!(mode(db.parent().unwrap()), 0o700);
    assert_eq!(mode(&dir.path().join("shop")), 0o700);
}

#[cfg(unix)]
#[test]
fn an_existing_store_readable_by_others_is_made_private_at_start() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.sqlite");
    assert!(petstore(&db, &["keys", "list"]).status.success());
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = petstore(&db, &["keys", "list"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(mode(&db), 0o600);
}

#[tokio::test]
async fn an_admin_takes_lists_and_downloads_a_backup() {
    let Some((app, cat)) = sqlite_shop_with("Birds", "Tweety", 2).await else {
        return;
    };
    assert_eq!(listed(&app).await, Vec::<String>::new());

    let res = post_backup(&app).await;
    assert_eq!(res.status(), 201);
    assert_eq!(header(&res, "x-stability"), "beta");
    let location = header(&res, "location");
    let taken = body(res).await;
    let name = taken["name"].as_str().unwrap().to_owned();
    assert_eq!(location, format!("/admin/backups/{name}"));
    assert!(taken["size"].as_u64().unwrap() > 0);
    assert!(taken["createdAt"].as_str().unwrap().ends_with('Z'));
    assert_eq!(taken.as_object().unwrap().len(), 3, "{taken}");

    app.pet_with_stock("Polly", cat, 1).await;
    let second = take_backup(&app).await;
    let list = app.get_json("/admin/backups").await;
    assert_eq!(list[0], second, "newest first");
    assert_eq!(list[1], taken);

    let res = app.get(&location).await;
    assert_eq!(res.status(), 200);
    assert_eq!(header(&res, "content-type"), "application/vnd.sqlite3");
    assert_eq!(
        header(&res, "content-disposition"),
        format!("attachment; filename=\"{name}\"")
    );
    let bytes = res.bytes().await.unwrap();
    assert_eq!(bytes.len() as u64, taken["size"].as_u64().unwrap());
    let copy = app.dir.path().join("downloaded.sqlite");
    std::fs::write(&copy, &bytes).unwrap();
    let (check, pets) = pets_in(&copy);
    assert_eq!(check, "ok");
    assert_eq!(
        pets,
        ["Tweety"],
        "the first backup holds what was there then"
    );
}

#[tokio::test]
async fn backup_names_cannot_reach_outside_the_backup_folder() {
    if !sqlite_only(BACKED_UP_BY_PG_DUMP) {
        return;
    }
    let app = TestApp::spawn().await;
    let res = post_backup(&app).await;
    assert_eq!(res.status(), 201);
    let folder = app.dir.path().join("backups");
    std::fs::write(folder.join(".hidden.sqlite"), b"x").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(app.db_path(), folder.join("link.sqlite")).unwrap();
    for path in [
        "/admin/backups/..%2Fstore.sqlite",
        "/admin/backups/%2E%2E%2Fstore.sqlite",
        "/admin/backups/store.sqlite",
        "/admin/backups/.hidden.sqlite",
        "/admin/backups/link.sqlite",
        "/admin/backups/..",
        "/admin/backups/%2Fetc%2Fpasswd",
        "/admin/backups/nothing-here.sqlite",
    ] {
        assert_error(app.get(path).await, 404, "not_found").await;
    }
    assert_eq!(listed(&app).await.len(), 1, "only real backups are listed");
}

#[tokio::test]
async fn backups_need_the_admin_role() {
    let app = TestApp::spawn().await;
    let staff = app.key("staff", "pro").await;
    for (method, path) in [
        (Method::GET, "/admin/backups"),
        (Method::POST, "/admin/backups"),
        (
            Method::GET,
            "/admin/backups/petstore-2026-01-01-000000.sqlite",
        ),
    ] {
        let res = app.send_as(&staff, method, path).await;
        assert_error(res, 403, "forbidden").await;
        let res = app.get_without_key(path).await;
        assert_error(res, 401, "unauthorized").await;
    }
}

/// What a shop would want back: every list, in full.
async fn snapshot(app: &TestApp) -> Value {
    let mut all = json!({});
    for path in ["/pets", "/categories", "/store/orders", "/store/inventory"] {
        all[path] = app.get_json(&format!("{path}?limit=500")).await;
    }
    all
}

#[tokio::test]
async fn a_restore_brings_back_exactly_what_the_backup_held() {
    if !sqlite_only(BACKED_UP_BY_PG_DUMP) {
        return;
    }
    let app = TestApp::spawn().await;
    let dogs = app.category("Dogs").await;
    let rex = app.pet_with_stock("Rex", dogs, 5).await;
    let fido = app.pet_with_stock("Fido", dogs, 2).await;
    let order = app.order(rex, 2).await;
    let res = app.complete(&order).await;
    assert_eq!(res.status(), 200);
    let before = snapshot(&app).await;
    let backup = backup_file(&app).await;

    // Life goes on after the backup: all of this must be gone after the restore.
    app.order(fido, 1).await;
    app.pet_with_stock("Later", dogs, 9).await;
    assert_eq!(app.delete(&format!("/pets/{rex}")).await.status(), 204);
    app.category("Cats").await;
    assert_ne!(snapshot(&app).await, before);

    let dir = app.stop().await;
    let db = dir.path().join("store.sqlite");
    let out = petstore(&db, &["restore", backup.to_str().unwrap()]);
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(said.contains("Restored"), "{said}");
    assert!(said.contains("2 pets in 1 category and 1 order "), "{said}");
    let kept = kept_stores(dir.path());
    assert_eq!(kept.len(), 1, "the replaced store is kept: {kept:?}");
    assert!(said.contains(&kept[0].display().to_string()), "{said}");
    let (check, pets) = pets_in(&kept[0]);
    assert_eq!(check, "ok");
    assert_eq!(
        pets,
        ["Fido", "Later"],
        "the kept store is the one replaced"
    );

    let app = TestApp::builder().dir(dir).spawn().await;
    assert_eq!(snapshot(&app).await, before);
}

#[tokio::test]
async fn restore_is_refused_while_a_server_has_the_store_open() {
    let Some((app, cat)) = sqlite_shop_with("Reptiles", "Iggy", 1).await else {
        return;
    };
    let backup = backup_file(&app).await;
    app.pet_with_stock("Spike", cat, 1).await;

    let out = petstore(&app.db_path(), &["restore", backup.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("open in a running petstore"), "{err}");
    // The server and its data are untouched.
    let pets = app.get_json("/pets").await;
    assert_eq!(pets.as_array().unwrap().len(), 2);
    let spike = app.pet_with_stock("Still works", cat, 1).await;
    assert!(spike > 0);
    assert!(!file_names(app.dir.path())
        .iter()
        .any(|n| n.contains("before-restore")));
}

#[tokio::test]
async fn restore_refuses_a_file_that_is_not_a_pet_store_and_changes_nothing() {
    let Some((dir, db, before)) = stopped_store_with_jerry().await else {
        return;
    };

    let notes = dir.path().join("notes.sqlite");
    std::fs::write(
        &notes,
        "not a database at all, just some text\n".repeat(100),
    )
    .unwrap();
    let other = dir.path().join("other.sqlite");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('soup');")
        .unwrap();
    let newer = dir.path().join("newer.sqlite");
    std::fs::copy(&db, &newer).unwrap();
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute_batch(
            "INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'future', 'x')",
        )
        .unwrap();
    let missing = dir.path().join("missing.sqlite");

    for (file, says) in [
        (&notes, "is not a Pet Store backup"),
        (
            &other,
            "is not a Pet Store backup: it has no schema_migrations",
        ),
        (&newer, "made by a newer petstore"),
        (&missing, "cannot read"),
        (&db, "is the store itself"),
    ] {
        assert_restore_refused(&db, file, says);
    }
    let names = file_names(dir.path());
    assert!(
        !names
            .iter()
            .any(|n| n.contains("before-restore") || n.contains(".restore-")),
        "{names:?}"
    );
    assert_store_untouched(dir, &db, &before).await;
}

#[tokio::test]
async fn restore_refuses_a_backup_with_a_trigger_a_view_or_a_missing_table_and_changes_nothing() {
    let Some((dir, db, before)) = stopped_store_with_jerry().await else {
        return;
    };
    let crafted = |name: &str, sql: &str| {
        let file = dir.path().join(name);
        std::fs::copy(&db, &file).unwrap();
        let conn = rusqlite::Connection::open(&file).unwrap();
        conn.execute_batch(sql).unwrap();
        conn.execute_batch("PRAGMA journal_mode = DELETE").unwrap();
        file
    };
    let trigger = crafted(
        "trigger.sqlite",
        "CREATE TRIGGER wipe AFTER INSERT ON orders BEGIN
             DELETE FROM stock_changes; UPDATE pets SET price = 0;
         END",
    );
    let view = crafted(
        "view.sqlite",
        "DROP TABLE sign_in_locks; CREATE VIEW sign_in_locks AS SELECT 'x' AS name, 0 AS until",
    );
    let missing = crafted(
        "missing.sqlite",
        "DROP TABLE staff_sessions; DROP TABLE staff_members",
    );
    let extra = crafted("extra.sqlite", "CREATE TABLE notes (text TEXT)");
    for (file, says) in [
        (&trigger, "trigger wipe"),
        (&view, "view sign_in_locks"),
        (&missing, "no table staff_members"),
        (&extra, "table notes"),
    ] {
        let err = assert_restore_refused(&db, file, says);
        assert!(
            err.contains("this program can trust"),
            "{}: {err}",
            file.display()
        );
    }
    assert_store_untouched(dir, &db, &before).await;
}

#[test]
fn a_store_kept_by_a_restore_and_missing_from_its_place_is_never_replaced_by_an_empty_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.sqlite");
    let out = petstore(&db, &["keys", "create", "--name", "t", "--role", "pos"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // What a restore stopped between keeping the store aside and putting the backup in its
    // place would leave: the store only under its kept name.
    let kept = dir
        .path()
        .join("store.before-restore-2026-11-22-173500.sqlite");
    std::fs::rename(&db, &kept).unwrap();
    let out = petstore(&db, &["keys", "list"]);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "started: {}", text(&out.stdout));
    assert!(err.contains("a store was expected here"), "{err}");
    assert!(
        err.contains("store.before-restore-2026-11-22-173500.sqlite"),
        "{err}"
    );
    assert!(!db.exists(), "no empty store was made");
    // Put back, it serves again with its keys.
    std::fs::rename(&kept, &db).unwrap();
    let out = petstore(&db, &["keys", "list"]);
    assert!(text(&out.stdout).contains(" t "), "{}", text(&out.stdout));
}

#[cfg(unix)]
#[tokio::test]
async fn a_restore_keeps_the_replaced_store_as_the_same_file_and_the_store_name_never_goes_missing()
{
    use std::os::unix::fs::MetadataExt;
    let Some((app, _)) = sqlite_shop_with("Mice", "Jerry", 1).await else {
        return;
    };
    let backup = backup_file(&app).await;
    let dir = app.stop().await;
    let db = dir.path().join("store.sqlite");
    let inode = std::fs::metadata(&db).unwrap().ino();
    // Watch the store's name while the restore runs: it must name a file every time.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let (db, stop) = (db.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut looks = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                assert!(
                    db.exists(),
                    "the store's name was missing after {looks} looks"
                );
                looks += 1;
            }
            looks
        })
    };
    let out = petstore(&db, &["restore", backup.to_str().unwrap()]);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let looks = watcher.join().expect("the store's name never went missing");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(looks > 0);
    let kept = kept_stores(dir.path());
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(
        std::fs::metadata(&kept[0]).unwrap().ino(),
        inode,
        "the kept store is the replaced file itself"
    );
    assert_ne!(std::fs::metadata(&db).unwrap().ino(), inode);
}

/// A store of about 48 MiB: a backup of it takes long enough to be killed part of the way.
fn big_store(dir: &Path) -> PathBuf {
    let db = dir.join("store.sqlite");
    let out = petstore(&db, &["keys", "list"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("CREATE TABLE ballast (b BLOB)").unwrap();
    let blob = vec![7u8; 64 * 1024];
    for _ in 0..768 {
        conn.execute("INSERT INTO ballast VALUES (?1)", [&blob])
            .unwrap();
    }
    db
}

#[test]
fn a_backup_killed_part_of_the_way_never_leaves_a_file_under_its_final_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = big_store(dir.path());
    let dest = dir.path().join("copy.sqlite");

    let started = Instant::now();
    let out = petstore(&db, &["backup", dest.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let whole = started.elapsed();
    std::fs::remove_file(&dest).unwrap();

    let mut interrupted = 0;
    for step in 1..=6u32 {
        let mut child = petstore_command(&db, &["backup", dest.to_str().unwrap()])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(whole * step / 7);
        let _ = child.kill(); // SIGKILL
        let status = child.wait().unwrap();
        if dest.exists() {
            // It finished before the kill: then it must be whole.
            let conn = rusqlite::Connection::open(&dest).unwrap();
            let check: String = conn
                .query_row("PRAGMA integrity_check", [], |r| r.get(0))
                .unwrap();
            let rows: i64 = conn
                .query_row("SELECT COUNT(*) FROM ballast", [], |r| r.get(0))
                .unwrap();
            assert_eq!((check.as_str(), rows), ("ok", 768), "step {step}");
            drop(conn);
            std::fs::remove_file(&dest).unwrap();
        } else {
            assert!(!status.success(), "step {step}: exited 0 without a file");
            interrupted += 1;
        }
    }
    assert!(
        interrupted >= 1,
        "no backup was caught part of the way ({whole:?} each)"
    );
    let leftovers: Vec<String> = file_names(dir.path())
        .into_iter()
        .filter(|n| n.ends_with(".partial"))
        .collect();
    assert!(
        !leftovers.is_empty(),
        "at least one backup was killed while writing its temporary file"
    );
    assert!(
        leftovers.iter().all(|n| n.starts_with(".copy.sqlite.")),
        "a killed backup leaves only a hidden temporary file: {leftovers:?}"
    );
    // And the next backup is not hindered by what the killed ones left.
    let out = petstore(&db, &["backup", dest.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    #[cfg(unix)]
    assert_eq!(mode(&dest), 0o600);
}
