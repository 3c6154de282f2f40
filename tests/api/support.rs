//! `TestApp`: the real server on port 0 over a fresh SQLite file, and a client for it.
//!
//! With `PETSTORE_TEST_POSTGRES` set to a PostgreSQL base URL (`postgresql://user:pw@host:port`,
//! as `./scripts/test.sh postgres` does), each `TestApp` serves a database of its own, made
//! for it on that server, so tests stay isolated and run in parallel. Tests that are about
//! the SQLite file itself call [`sqlite_only`] and skip there, saying why.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use petstore::limits::{Clock, SystemClock};
use petstore::{App, ServeArgs, Settings};
use reqwest::{Method, RequestBuilder, Response};
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The PostgreSQL server the suite runs against, when it does (`PETSTORE_TEST_POSTGRES`).
pub fn postgres_base() -> Option<String> {
    std::env::var("PETSTORE_TEST_POSTGRES")
        .ok()
        .filter(|base| !base.is_empty())
        .map(|base| base.trim_end_matches('/').to_owned())
}

/// Whether this run is on SQLite; on PostgreSQL, prints that the calling test is skipped
/// and why (`reason`).
pub fn sqlite_only(reason: &str) -> bool {
    if postgres_base().is_some() {
        eprintln!("skipped on PostgreSQL: {reason}");
        return false;
    }
    true
}

/// A new, empty database on the suite's PostgreSQL server: its URL.
fn new_postgres_database(base: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let name = format!(
        "petstore_test_{}_{}",
        std::process::id(),
        MADE.fetch_add(1, Ordering::Relaxed)
    );
    let (admin, made) = (format!("{base}/postgres"), name.clone());
    // The synchronous client runs its own runtime: off the test's runtime thread.
    std::thread::spawn(move || {
        let mut client = postgres::Client::connect(&admin, postgres::NoTls).unwrap();
        client
            .batch_execute(&format!("CREATE DATABASE {made}"))
            .unwrap();
    })
    .join()
    .unwrap();
    PathBuf::from(format!("{base}/{name}"))
}

/// Where a new test store lives: a file in `dir`, or a new PostgreSQL database.
pub fn new_store_location(dir: &TempDir) -> PathBuf {
    match postgres_base() {
        Some(base) => new_postgres_database(&base),
        None => dir.path().join("store.sqlite"),
    }
}

/// The admin key every test store starts with.
pub const ADMIN_KEY: &str = "psk_test_admin_key_0123456789abcdef0123456789abcdef";

pub struct TestApp {
    pub addr: SocketAddr,
    /// Whether it serves HTTPS (`tls` on), with the store's own certificate.
    pub https: bool,
    pub client: reqwest::Client,
    pub app: App,
    pub dir: Arc<TempDir>,
    pub settings: Settings,
    clock: Arc<dyn Clock>,
    stop: Option<oneshot::Sender<()>>,
    server: Option<JoinHandle<std::io::Result<()>>>,
}

/// Builds a [`TestApp`] with changed settings or clock.
pub struct Builder {
    args: ServeArgs,
    clock: Arc<dyn Clock>,
    dir: Option<Arc<TempDir>>,
    /// Settings to start with as they are (a restart keeps the stopped server's).
    settings: Option<Settings>,
}

impl Builder {
    pub fn args(mut self, change: impl FnOnce(&mut ServeArgs)) -> Self {
        change(&mut self.args);
        self
    }

    /// Serves the store already in `dir` (e.g. one a test stopped and changed).
    pub fn dir(mut self, dir: Arc<TempDir>) -> Self {
        self.dir = Some(dir);
        self
    }

    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    pub async fn spawn(self) -> TestApp {
        let dir = self
            .dir
            .unwrap_or_else(|| Arc::new(tempfile::tempdir().unwrap()));
        let settings = self.settings.unwrap_or_else(|| {
            let mut args = self.args;
            args.bind = Some("127.0.0.1:0".parse().unwrap());
            args.admin_key = Some(ADMIN_KEY.into());
            Settings::new(Some(new_store_location(&dir)), args).unwrap()
        });
        let app = App::open_with_clock(&settings, self.clock.clone()).unwrap();
        let listener = tokio::net::TcpListener::bind(settings.bind).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let shutdown = async move {
            let _ = stopped.await;
        };
        let https = settings.tls.is_on();
        let server = if https {
            tokio::spawn(petstore::serve_tls(listener, app.clone(), shutdown))
        } else {
            tokio::spawn(petstore::serve(listener, app.clone(), shutdown))
        };
        let client = if https {
            // Trusts the store's own certificate (and nothing else), and keeps the
            // certificate each answer came with.
            let pem = std::fs::read(dir.path().join(petstore::tls::CERT_FILE)).unwrap();
            reqwest::Client::builder()
                .tls_built_in_root_certs(false)
                .add_root_certificate(reqwest::Certificate::from_pem(&pem).unwrap())
                .tls_info(true)
                .build()
                .unwrap()
        } else {
            reqwest::Client::new()
        };
        TestApp {
            addr,
            https,
            client,
            app,
            dir,
            settings,
            clock: self.clock,
            stop: Some(stop),
            server: Some(server),
        }
    }
}

impl TestApp {
    pub fn builder() -> Builder {
        Builder {
            args: ServeArgs::default(),
            clock: Arc::new(SystemClock),
            dir: None,
            settings: None,
        }
    }

    /// The server with default settings on a new store.
    pub async fn spawn() -> Self {
        Self::builder().spawn().await
    }

    pub fn db_path(&self) -> PathBuf {
        self.settings.db.clone()
    }

    pub fn url(&self, path: &str) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}{}", self.addr, path)
    }

    /// A request with the admin key.
    pub fn request(&self, method: Method, path: &str) -> RequestBuilder {
        self.request_as(ADMIN_KEY, method, path)
    }

    /// A request with another key.
    pub fn request_as(&self, key: &str, method: Method, path: &str) -> RequestBuilder {
        self.client
            .request(method, self.url(path))
            .header("X-API-Key", key)
    }

    /// A request with another key and no body, sent.
    pub async fn send_as(&self, key: &str, method: Method, path: &str) -> Response {
        self.request_as(key, method, path).send().await.unwrap()
    }

    /// A GET with no key at all, as a stranger or a browser would send it.
    pub async fn get_without_key(&self, path: &str) -> Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    /// A JSON POST with no key at all (pairing, signing in).
    pub async fn post_without_key(&self, path: &str, body: Value) -> Response {
        self.client
            .post(self.url(path))
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    pub async fn get(&self, path: &str) -> Response {
        self.request(Method::GET, path).send().await.unwrap()
    }

    pub async fn send_json(&self, method: Method, path: &str, body: Value) -> Response {
        self.request(method, path).json(&body).send().await.unwrap()
    }

    pub async fn post(&self, path: &str, body: Value) -> Response {
        self.send_json(Method::POST, path, body).await
    }

    pub async fn delete(&self, path: &str) -> Response {
        self.request(Method::DELETE, path).send().await.unwrap()
    }

    /// Adds a staff member with the admin key; the member as stored.
    pub async fn add_member(&self, name: &str, role: &str, pin: &str) -> Value {
        let res = self
            .post(
                "/admin/staff",
                json!({ "name": name, "role": role, "pin": pin }),
            )
            .await;
        assert_eq!(res.status(), 201, "adding {name}");
        body(res).await
    }

    /// Signs a staff member in by name and PIN (`POST /session`, with no key).
    pub async fn sign_in(&self, name: &str, pin: &str) -> Response {
        self.post_without_key("/session", json!({ "name": name, "pin": pin }))
            .await
    }

    /// Creates a category and returns its id.
    pub async fn category(&self, name: &str) -> i64 {
        let res = self.post("/categories", json!({ "name": name })).await;
        assert_eq!(res.status(), 201, "creating category {name}");
        body(res).await["id"].as_i64().unwrap()
    }

    /// A pet to create in `category` with the admin key, `available` unless told otherwise:
    /// `app.pet("Rex", cat).stock(3).create().await`.
    pub fn pet(&self, name: &str, category: i64) -> PetBuilder<'_> {
        let mut body = serde_json::Map::new();
        body.insert("name".into(), json!(name));
        body.insert("categoryId".into(), json!(category));
        body.insert("status".into(), json!("available"));
        PetBuilder {
            app: self,
            body,
            stock: None,
            reorder_point: None,
        }
    }

    /// Creates an `available` pet in `category` with `stock` units (none set when 0).
    pub async fn pet_with_stock(&self, name: &str, category: i64, stock: i64) -> i64 {
        self.pet(name, category).stock(stock).create().await
    }

    /// Creates a pet with no status, a `price` and `stock` units, in a new category called
    /// `category`; its id.
    pub async fn pet_for_sale(&self, category: &str, name: &str, price: i64, stock: i64) -> i64 {
        let category = self.category(category).await;
        self.pet(name, category)
            .no_status()
            .with("price", price)
            .stock(stock)
            .create()
            .await
    }

    /// Sets a pet's `status` (`PATCH /pets/{pet}`) and asserts a 200.
    pub async fn set_status(&self, pet: i64, status: &str) {
        let res = self
            .send_json(
                Method::PATCH,
                &format!("/pets/{pet}"),
                json!({ "status": status }),
            )
            .await;
        assert_eq!(res.status(), 200);
    }

    /// The pet's stock now, as `GET /store/inventory/{pet}` answers it.
    pub async fn stock(&self, pet: i64) -> i64 {
        self.get_json(&format!("/store/inventory/{pet}")).await["quantity"]
            .as_i64()
            .unwrap()
    }

    /// Creates a key with `role` and `plan` and returns its secret.
    pub async fn key(&self, role: &str, plan: &str) -> String {
        self.key_with_id(role, plan).await.1
    }

    /// Stops the server gracefully and closes the store (checkpointing the WAL).
    pub async fn stop(mut self) -> Arc<TempDir> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(server) = self.server.take() {
            server.await.unwrap().unwrap();
        }
        let app = self.app.clone();
        tokio::task::spawn_blocking(move || app.close())
            .await
            .unwrap();
        self.dir.clone()
    }

    /// Stops the server and starts a new one on the same store file with the same settings.
    pub async fn restart(self) -> Self {
        let clock = self.clock.clone();
        let settings = self.settings.clone();
        let dir = self.stop().await;
        Builder {
            args: ServeArgs::default(),
            clock,
            dir: Some(dir),
            settings: Some(settings),
        }
        .spawn()
        .await
    }
}

/// A pet about to be created (see [`TestApp::pet`]): the body of its `POST /pets`, then the
/// stock it is given and its reorder point, each asserted to be accepted.
pub struct PetBuilder<'a> {
    app: &'a TestApp,
    body: serde_json::Map<String, Value>,
    stock: Option<i64>,
    reorder_point: Option<i64>,
}

impl PetBuilder<'_> {
    /// Another field of the pet's body (`sku`, `price`, `animal`, ...), or `status` to change it.
    pub fn with(mut self, field: &str, value: impl Into<Value>) -> Self {
        self.body.insert(field.into(), value.into());
        self
    }

    /// Each field of the JSON object `fields` (as [`with`](Self::with) does one).
    pub fn fields(mut self, fields: Value) -> Self {
        let Value::Object(fields) = fields else {
            panic!("pet fields are a JSON object, not {fields}")
        };
        self.body.extend(fields);
        self
    }

    /// No `status` at all (the inventory counts such a pet as available).
    pub fn no_status(mut self) -> Self {
        self.body.remove("status");
        self
    }

    /// Units set with `PUT /store/inventory/{id}` once the pet exists (none set when 0).
    pub fn stock(mut self, units: i64) -> Self {
        self.stock = (units > 0).then_some(units);
        self
    }

    /// A reorder point set with `PATCH /store/inventory/{id}` once the pet exists.
    pub fn reorder_point(mut self, point: i64) -> Self {
        self.reorder_point = Some(point);
        self
    }

    /// Creates the pet and returns its id.
    pub async fn create(self) -> i64 {
        self.created().await["id"].as_i64().unwrap()
    }

    /// Creates the pet and returns it as `POST /pets` answered it.
    pub async fn created(self) -> Value {
        let app = self.app;
        let res = app.post("/pets", Value::Object(self.body.clone())).await;
        assert_eq!(res.status(), 201, "creating pet {:?}", self.body);
        let pet = body(res).await;
        let path = format!("/store/inventory/{}", pet["id"]);
        if let Some(quantity) = self.stock {
            let res = app
                .send_json(Method::PUT, &path, json!({ "quantity": quantity }))
                .await;
            assert_eq!(res.status(), 200, "setting the stock of {}", pet["name"]);
        }
        if let Some(point) = self.reorder_point {
            let res = app
                .send_json(Method::PATCH, &path, json!({ "reorderPoint": point }))
                .await;
            assert_eq!(
                res.status(),
                200,
                "setting the reorder point of {}",
                pet["name"]
            );
        }
        pet
    }
}

/// The JSON body of a response.
pub async fn body(res: Response) -> Value {
    let text = res.text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Asserts that `res` is an Error object with this status and code, and returns its message.
pub async fn assert_error(res: Response, status: u16, code: &str) -> String {
    assert_eq!(res.status().as_u16(), status, "status");
    let content_type = res.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(
        content_type.starts_with("application/json"),
        "content type {content_type}"
    );
    let value = body(res).await;
    assert_eq!(value["code"], code, "code in {value}");
    assert_eq!(value["status"], status, "status in {value}");
    let message = value["message"].as_str().expect("a message").to_owned();
    assert!(!message.is_empty());
    assert_eq!(
        value.as_object().unwrap().len(),
        3,
        "only code, message, status: {value}"
    );
    message
}

/// The `id`s of a list answer's records, in order.
pub fn ids_of(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect()
}

/// [`assert_error`], and its message contains `words`; returns the message.
pub async fn assert_error_saying(res: Response, status: u16, code: &str, words: &str) -> String {
    let message = assert_error(res, status, code).await;
    assert!(message.contains(words), "{message}");
    message
}

impl TestApp {
    /// Creates a key with `role` and `plan` and returns its id and secret.
    pub async fn key_with_id(&self, role: &str, plan: &str) -> (i64, String) {
        self.key_with(json!({ "name": format!("{role} {plan}"), "role": role, "plan": plan }))
            .await
    }

    /// Places an order with the admin key and returns it (asserting 201).
    pub async fn order(&self, pet: i64, quantity: i64) -> Value {
        let res = self
            .post(
                "/store/orders",
                json!({ "petId": pet, "quantity": quantity }),
            )
            .await;
        assert_eq!(res.status(), 201, "placing an order of pet {pet}");
        body(res).await
    }

    /// Marks `order` complete (`PATCH /store/orders/{id}`) with the admin key.
    pub async fn complete(&self, order: &Value) -> Response {
        let path = format!("/store/orders/{}", order["id"]);
        self.send_json(Method::PATCH, &path, json!({ "complete": true }))
            .await
    }

    /// Sends `bytes` as the body with this `Content-Type` (none when `None`), admin key.
    pub async fn send_raw(
        &self,
        method: Method,
        path: &str,
        content_type: Option<&str>,
        bytes: impl Into<reqwest::Body>,
    ) -> Response {
        let mut req = self.request(method, path).body(bytes);
        if let Some(content_type) = content_type {
            req = req.header("Content-Type", content_type);
        }
        req.send().await.unwrap()
    }

    /// The JSON body of a GET with the admin key, asserting 200.
    pub async fn get_json(&self, path: &str) -> Value {
        let res = self.get(path).await;
        assert_eq!(res.status(), 200, "GET {path}");
        body(res).await
    }

    /// Changes the store profile (`PATCH /store/profile`), asserts a 200 and answers the
    /// profile as stored.
    pub async fn set_profile(&self, change: Value) -> Value {
        let res = self
            .send_json(Method::PATCH, "/store/profile", change)
            .await;
        assert_eq!(res.status(), 200);
        body(res).await
    }

    /// `GET path` asking for CSV (`Accept: text/csv`): asserts a 200 in `text/csv` and
    /// answers the text.
    pub async fn get_csv(&self, path: &str) -> String {
        let res = self
            .request(Method::GET, path)
            .header("Accept", "text/csv")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        assert!(header(&res, "content-type").starts_with("text/csv"));
        res.text().await.unwrap()
    }
}

impl TestApp {
    /// Creates a key from `body` (`{name, role, plan, perMinute?, perDay?}`) with the admin key
    /// and returns its id and secret.
    pub async fn key_with(&self, body: Value) -> (i64, String) {
        let res = self.post("/admin/keys", body.clone()).await;
        assert_eq!(res.status(), 201, "creating key {body}");
        let created = self::body(res).await;
        (
            created["id"].as_i64().unwrap(),
            created["secret"].as_str().unwrap().to_owned(),
        )
    }

    /// The admin listing's entry for key `id`.
    pub async fn listed_key(&self, id: i64) -> Value {
        let res = self.get("/admin/keys").await;
        assert_eq!(res.status(), 200, "listing keys");
        let keys = body(res).await;
        keys.as_array()
            .unwrap()
            .iter()
            .find(|k| k["id"] == id)
            .unwrap_or_else(|| panic!("key {id} is not listed in {keys}"))
            .clone()
    }
}

/// The value of header `name`, which must be present.
pub fn header(res: &Response, name: &str) -> String {
    res.headers()
        .get(name)
        .unwrap_or_else(|| panic!("no {name} header on a {} answer", res.status()))
        .to_str()
        .unwrap()
        .to_owned()
}

/// A response header that holds a whole number; panics when it is missing or not a number.
pub fn header_num(res: &Response, name: &str) -> i64 {
    let raw = header(res, name);
    raw.parse()
        .unwrap_or_else(|_| panic!("{name} is not a number: {raw:?}"))
}
