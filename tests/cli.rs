//! The `petstore` program's commands (keys, backups, the demo, serving with a log file), run
//! as a user runs them: the built binary with `PETSTORE_DB` pointing at a store in a temporary
//! folder.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use tempfile::TempDir;

#[path = "api/program.rs"]
mod program;

use program::petstore_without_settings;

/// A temporary folder holding the store the commands use.
struct Shop {
    dir: TempDir,
}

impl Shop {
    fn new() -> Self {
        Shop {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn db(&self) -> PathBuf {
        self.dir.path().join("store.sqlite")
    }

    /// Runs `petstore ARGS` against this shop's store, with no other `PETSTORE_*` setting.
    fn run(&self, args: &[&str]) -> Output {
        self.run_on(&self.db(), args)
    }

    fn run_on(&self, db: &Path, args: &[&str]) -> Output {
        let mut command = petstore_without_settings();
        command
            .args(args)
            .env("PETSTORE_DB", db)
            .env("PETSTORE_LOG", "warn")
            .current_dir(self.dir.path())
            .output()
            .unwrap()
    }

    /// `petstore serve` on this shop's store on a port of its own, with rate limits off, the
    /// log at `info` and `extra` arguments after those. Standard output is piped (for
    /// `listening_address`); standard error goes to `stderr`.
    fn serve_logging_info(&self, extra: &[&str], stderr: Stdio) -> Child {
        let db = self.db();
        Command::new(env!("CARGO_BIN_EXE_petstore"))
            .args([
                "--db",
                db.to_str().unwrap(),
                "serve",
                "--bind",
                "127.0.0.1:0",
                "--rate-limits",
                "off",
            ])
            .args(extra)
            .env("PETSTORE_LOG", "info")
            .env_remove("PETSTORE_ADMIN_KEY")
            .env_remove("PETSTORE_LOG_FILE")
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap()
    }

    /// Runs a command that must succeed and returns what it printed.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "petstore {args:?} failed: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        text(&out.stdout)
    }

    /// Runs a command that must fail and returns what it printed to stderr.
    fn fails(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            !out.status.success(),
            "petstore {args:?} succeeded: {}",
            text(&out.stdout)
        );
        text(&out.stderr)
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The id and secret printed by `keys create`.
fn created(out: &str) -> (i64, String) {
    let id = out
        .split_whitespace()
        .skip_while(|w| *w != "key")
        .nth(1)
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no key id in {out:?}"));
    let secret = out
        .split_whitespace()
        .find(|w| w.starts_with("psk_"))
        .unwrap_or_else(|| panic!("no secret in {out:?}"))
        .to_owned();
    (id, secret)
}

/// The line of `keys list` for key `id`.
fn listed(list: &str, id: i64) -> String {
    list.lines()
        .find(|line| line.split_whitespace().next() == Some(&id.to_string()))
        .unwrap_or_else(|| panic!("key {id} not in {list:?}"))
        .to_owned()
}

#[test]
fn keys_create_list_and_revoke_manage_a_stores_keys() {
    let shop = Shop::new();
    let out = shop.ok(&[
        "keys", "create", "--name", "t", "--role", "pos", "--plan", "pro",
    ]);
    let (id, secret) = created(&out);
    assert!(out.contains("pos") && out.contains("pro"), "{out}");
    assert!(secret.len() >= 32, "{secret}");

    let list = shop.ok(&["keys", "list"]);
    assert!(!list.contains(&secret), "the list shows a secret: {list}");
    let line = listed(&list, id);
    for word in ["t", "pos", "pro", "300/10000", "never", "active"] {
        assert!(
            line.split_whitespace().any(|w| w == word),
            "{word} not in {line:?}"
        );
    }
    let prefix = line
        .split_whitespace()
        .find(|w| w.starts_with("psk_"))
        .unwrap();
    assert!(
        secret.starts_with(prefix),
        "{prefix} is not the start of the secret"
    );

    let out = shop.ok(&["keys", "revoke", &id.to_string()]);
    assert!(
        out.contains("Revoked") && out.contains(&id.to_string()),
        "{out}"
    );
    let line = listed(&shop.ok(&["keys", "list"]), id);
    assert!(line.ends_with("revoked"), "{line}");
}

#[test]
fn keys_create_takes_limits_for_enterprise_keys_only() {
    let shop = Shop::new();
    let out = shop.ok(&[
        "keys",
        "create",
        "--name",
        "hq",
        "--role",
        "staff",
        "--plan",
        "enterprise",
        "--per-minute",
        "500",
        "--per-day",
        "20000",
    ]);
    let (id, _) = created(&out);
    let line = listed(&shop.ok(&["keys", "list"]), id);
    assert!(
        line.contains("enterprise") && line.contains(" 500/20000 "),
        "{line}"
    );

    let err = shop.fails(&[
        "keys",
        "create",
        "--name",
        "e",
        "--role",
        "pos",
        "--plan",
        "enterprise",
    ]);
    assert!(err.contains("perMinute"), "{err}");
    let err = shop.fails(&[
        "keys",
        "create",
        "--name",
        "p",
        "--role",
        "pos",
        "--plan",
        "pro",
        "--per-minute",
        "5",
    ]);
    assert!(err.contains("perMinute"), "{err}");
    let err = shop.fails(&[
        "keys", "create", "--name", "g", "--role", "pos", "--plan", "gold",
    ]);
    assert!(err.contains("plan"), "{err}");
    let err = shop.fails(&["keys", "create", "--name", "r", "--role", "owner"]);
    assert!(err.contains("role"), "{err}");
    // The refused keys were not made.
    assert_eq!(
        shop.ok(&["keys", "list"]).lines().count(),
        2,
        "a header and one key"
    );
}

#[test]
fn revoking_an_unknown_key_fails_with_a_message() {
    let shop = Shop::new();
    shop.ok(&["keys", "create", "--name", "t", "--role", "pos"]);
    let err = shop.fails(&["keys", "revoke", "999"]);
    assert!(err.starts_with("petstore: "), "{err}");
    assert!(err.contains("999"), "{err}");
}

#[test]
fn every_command_explains_itself_with_help() {
    let shop = Shop::new();
    let commands: [&[&str]; 7] = [
        &[],
        &["serve"],
        &["keys"],
        &["keys", "create"],
        &["keys", "list"],
        &["keys", "revoke"],
        &["backup"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.push("--help");
        let out = shop.ok(&args);
        assert!(out.contains("Usage: petstore"), "{args:?}: {out}");
    }
    let out = shop.ok(&["keys", "create", "--help"]);
    for flag in ["--name", "--role", "--plan", "--per-minute", "--per-day"] {
        assert!(out.contains(flag), "{flag} missing from {out}");
    }
    let out = shop.ok(&["serve", "--help"]);
    for flag in [
        "--rate-limits",
        "--ban-after",
        "--ban-seconds",
        "--bind",
        "--db",
    ] {
        assert!(out.contains(flag), "{flag} missing from {out}");
    }
    assert!(!shop.db().exists(), "help opened the store");
}

#[test]
fn backup_copies_a_store_that_then_opens_with_the_same_keys() {
    let shop = Shop::new();
    let (id, _) = created(&shop.ok(&[
        "keys", "create", "--name", "till", "--role", "pos", "--plan", "business",
    ]));
    let copy = shop.dir.path().join("copy.sqlite");
    let out = shop.ok(&["backup", copy.to_str().unwrap()]);
    assert!(out.contains("Backed up"), "{out}");
    assert!(copy.exists());

    let list = text(&shop.run_on(&copy, &["keys", "list"]).stdout);
    assert!(listed(&list, id).contains("business"), "{list}");

    // A backup never overwrites a file.
    let err = shop.fails(&["backup", copy.to_str().unwrap()]);
    assert!(err.starts_with("petstore: "), "{err}");
}

#[test]
fn demo_makes_a_new_shop_full_of_data_serves_it_and_prints_working_keys() {
    let shop = Shop::new();
    let db = shop.dir.path().join("demo.sqlite");
    let (mut child, printed) = start_demo(
        Command::new(env!("CARGO_BIN_EXE_petstore"))
            .args([
                "--db",
                db.to_str().unwrap(),
                "demo",
                "--bind",
                "127.0.0.1:0",
            ])
            .env_remove("PETSTORE_ADMIN_KEY"),
    );
    let value = |prefix: &str| banner_value(&printed, prefix);
    let addr = value("petstore listening on http://");
    let admin = value("Admin key:");
    let pos = value("POS key (Till 1):");
    assert!(
        value("Demo shop:").contains("in 12 categories"),
        "{printed:?}"
    );

    // A plain HTTP/1.1 GET, answered with its X-Total-Count.
    let total = |key: &str, path: &str| {
        let answer = raw_get(&addr, path, Some(key)).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{path}: {answer}");
        answer
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("x-total-count: ")
                    .map(str::to_owned)
            })
            .and_then(|n| n.trim().parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{path}: no X-Total-Count in {answer}"))
    };
    assert!(total(&pos, "/pets?limit=1") >= 200);
    assert_eq!(total(&pos, "/categories?limit=1"), 12);
    assert!(total(&admin, "/store/orders?limit=1") >= 30);
    assert!(total(&admin, "/store/orders?complete=false&limit=1") >= 1);
    // A believable first day: a handful of items low, not every kind down to its last one.
    let low = total(&admin, "/store/inventory?low=true&limit=1");
    assert!((1..=8).contains(&low), "{low} items low on the first day");
    // Its puppies and kittens are animals with a care history: a vaccination is overdue and
    // one animal is held in quarantine.
    let json = |path: &str| {
        let answer = raw_get(&addr, path, Some(&pos)).unwrap();
        let (_, body) = answer.split_once("\r\n\r\n").unwrap();
        serde_json::from_str::<serde_json::Value>(body).unwrap()
    };
    let due = json("/store/care/due");
    assert!(
        due.as_array()
            .unwrap()
            .iter()
            .any(|d| d["kind"] == "vaccination"
                && d["overdueDays"].as_i64().is_some_and(|days| days > 0)),
        "{due}"
    );
    let pets = json("/pets?limit=100");
    let pets = pets.as_array().unwrap();
    assert!(
        pets.iter()
            .filter(|p| p["animal"]["sex"].is_string())
            .count()
            >= 20
    );
    assert!(
        pets.iter()
            .any(|p| p["hold"]["reason"] == "Quarantine after arrival"),
        "no animal on hold"
    );
    child.kill().unwrap();
    child.wait().unwrap();

    // The demo makes a new store: it never fills one that exists.
    let err = shop.fails(&["--db", db.to_str().unwrap(), "demo"]);
    assert!(err.contains("already exists"), "{err}");
}

#[test]
fn the_default_demo_keeps_its_store_and_backups_apart_from_the_real_shops() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data").join("petstore");
    let real_backups = data.join("backups");
    std::fs::create_dir_all(&real_backups).unwrap();
    std::fs::write(
        real_backups.join("petstore-2026-11-20-100000.sqlite"),
        "the real shop",
    )
    .unwrap();
    let (mut child, printed) = start_demo(
        petstore_without_settings()
            .args(["demo", "--bind", "127.0.0.1:0"])
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", home.path().join("data")),
    );
    let value = |prefix: &str| banner_value(&printed, prefix);
    let addr = value("petstore listening on http://");
    let admin = value("Admin key:");
    let listed = raw_get(&addr, "/admin/backups", Some(&admin)).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(listed.starts_with("HTTP/1.1 200"), "{listed}");
    assert!(
        !listed.contains("petstore-2026-11-20-100000"),
        "the demo's key lists the real shop's backup: {listed}"
    );
    let demo = data.join("demo");
    assert!(demo.join("demo.sqlite").is_file(), "{printed:?}");
    let backups_line = value("Backups:");
    assert!(
        backups_line.contains(&demo.join("backups").display().to_string()),
        "{backups_line}"
    );
}

#[test]
fn serve_started_before_its_postgresql_database_waits_for_it_and_says_so_without_the_password() {
    use std::io::{BufRead, BufReader};

    // A port nothing listens on: PostgreSQL "down".
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://shop:Sekr3tPw@127.0.0.1:{port}/petstore");
    let mut command = petstore_without_settings();
    let mut child = command
        .args(["--db", &url, "serve", "--bind", "127.0.0.1:0"])
        .env("PETSTORE_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let said = lines.next().expect("a log line").unwrap();
    let still_running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        said.contains("cannot be reached yet; trying again"),
        "{said}"
    );
    assert!(said.contains("postgres://shop:***@127.0.0.1"), "{said}");
    assert!(!said.contains("Sekr3tPw"), "{said}");
    assert!(still_running, "the server exited instead of waiting");
}

/// Starts `command`, a `petstore demo`, with its log at `warn`; the child and the lines of
/// its banner up to the staff key.
fn start_demo(command: &mut Command) -> (Child, Vec<String>) {
    let mut child = command
        .env("PETSTORE_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let printed = banner_until(&mut child, "Staff key");
    (child, printed)
}

/// The lines a server prints up to and including the first that starts with `last`.
fn banner_until(child: &mut std::process::Child, last: &str) -> Vec<String> {
    use std::io::{BufRead, BufReader};

    let mut printed = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        let done = line.starts_with(last);
        printed.push(line);
        if done {
            break;
        }
    }
    printed
}

/// The rest of the banner line that starts with `prefix`, trimmed.
fn banner_value(printed: &[String], prefix: &str) -> String {
    printed
        .iter()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} in {printed:?}"))
        .trim()
        .to_owned()
}

#[test]
fn serve_writes_its_request_log_to_a_file_rotated_by_size_keeping_the_newest() {
    let shop = Shop::new();
    let log = shop.dir.path().join("logs/access.log");
    let mut child = shop.serve_logging_info(
        &[
            "--log-file",
            log.to_str().unwrap(),
            "--log-max-size",
            "2K",
            "--log-keep",
            "2",
        ],
        Stdio::null(),
    );
    let addr = listening_address(&mut child);
    for n in 0..200 {
        let answer = raw_get(&addr, &format!("/health?n={n}"), None).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }
    // The log is written by its own thread: give it a moment to catch up.
    let rotated = |n: usize| PathBuf::from(format!("{}.{n}", log.display()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !rotated(2).exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();

    for path in [log.clone(), rotated(1), rotated(2)] {
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            text.len() <= 2048 + 512,
            "{} holds {} bytes",
            path.display(),
            text.len()
        );
        assert!(
            text.contains("GET /health 200"),
            "{}: {text}",
            path.display()
        );
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{}", path.display());
        }
    }
    assert!(
        !rotated(3).exists(),
        "only the newest two rotated files are kept"
    );
}

#[test]
fn serve_refuses_a_log_file_it_cannot_write_in_one_line() {
    let shop = Shop::new();
    let folder = shop.dir.path().to_str().unwrap().to_owned();
    let err = shop.fails(&["serve", "--bind", "127.0.0.1:0", "--log-file", &folder]);
    assert!(err.contains("is a folder"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let err = shop.fails(&["serve", "--log-max-size", "lots"]);
    assert!(err.contains("--log-max-size"), "{err}");
}

#[test]
fn a_stalled_standard_error_never_holds_up_requests() {
    let shop = Shop::new();
    // Standard error is a pipe nobody reads: it is full after a few hundred lines, and a log
    // written in the request's path would stop the server there.
    let mut child = shop.serve_logging_info(&[], Stdio::piped());
    let addr = listening_address(&mut child);
    let started = std::time::Instant::now();
    for n in 0..3000 {
        let answer = raw_get(&addr, &format!("/health?n={n}"), None)
            .unwrap_or_else(|e| panic!("request {n} was not answered: {e}"));
        assert!(answer.starts_with("HTTP/1.1 200"), "request {n}: {answer}");
    }
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_secs(60),
        "3000 requests took {took:?}"
    );

    child.kill().unwrap();
    child.wait().unwrap();
}

/// The address a `petstore serve` child prints. Its standard output is read to the end on a
/// thread of its own: closing it after the first line would make the server's next line
/// fail and stop it before the test's first request.
fn listening_address(child: &mut std::process::Child) -> String {
    use std::io::{BufRead, BufReader};

    let stdout = child.stdout.take().unwrap();
    let (found, address) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(addr) = line.strip_prefix("petstore listening on http://") {
                let _ = found.send(addr.to_owned());
            }
        }
    });
    address.recv().unwrap()
}

/// A plain HTTP/1.1 `GET` of `path` on its own connection (with `key` when given): the whole
/// answer as text, or why none came within 5 s.
fn raw_get(addr: &str, path: &str, key: Option<&str>) -> std::io::Result<String> {
    use std::io::{Read, Write};

    let mut conn = std::net::TcpStream::connect(addr)?;
    conn.set_read_timeout(Some(std::time::Duration::from_secs(5)))?;
    let key = key
        .map(|k| format!("X-API-Key: {k}\r\n"))
        .unwrap_or_default();
    write!(
        conn,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{key}Connection: close\r\n\r\n"
    )?;
    let mut answer = String::new();
    conn.read_to_string(&mut answer)?;
    Ok(answer)
}

/// What `petstore serve` on a new store writes to standard error up to the moment it
/// listens, given the admin key as `how` (`flag` or `variable`).
fn warnings_before_listening(how: &str) -> String {
    use std::io::Read;

    let shop = Shop::new();
    let key = "an-admin-key-long-enough-1234567890";
    let mut command = petstore_without_settings();
    command.args([
        "--db",
        shop.db().to_str().unwrap(),
        "serve",
        "--bind",
        "127.0.0.1:0",
    ]);
    if how == "flag" {
        command.args(["--admin-key", key]);
    } else {
        command.env("PETSTORE_ADMIN_KEY", key);
    }
    let mut child = command
        .env("PETSTORE_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The warning is logged before the server listens, but the log is written by its own
    // thread: a graceful stop (SIGTERM) flushes it, where a kill could lose it.
    listening_address(&mut child);
    let stopped = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(stopped.success());
    child.wait().unwrap();
    let mut said = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut said)
        .unwrap();
    said
}

#[test]
fn an_admin_key_given_as_a_flag_is_warned_about_and_one_in_the_environment_is_not() {
    let flag = warnings_before_listening("flag");
    assert!(
        flag.contains("--admin-key shows the key to every user")
            && flag.contains("PETSTORE_ADMIN_KEY"),
        "{flag}"
    );
    assert!(!flag.contains("an-admin-key-long-enough"), "{flag}");
    let variable = warnings_before_listening("variable");
    assert!(!variable.contains("--admin-key"), "{variable}");
}
