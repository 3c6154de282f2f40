//! Getting data in and out: the CSV exports of pets and of the stock history, and the CSV
//! import of pets (all or nothing, with a dry run).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::Response;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use super::csv;
use super::error::{ApiError, Result};
use super::extract::{Auth, Readonly, Staff};
use super::query::{FromParams, Params, Query};
use super::reports::{date_param, DateRange};
use super::respond;
use super::state::AppState;
use crate::contract::Code;
use crate::domain::cell::guard;
use crate::domain::import::{self, Money, BODY_MAX, COLUMNS};
use crate::domain::money::{self, MoneyFormat};
use crate::domain::report;
use crate::domain::time;
use crate::store::export::{self, ChangeLine, ChangeRange, PetLine};
use crate::store::Store;

/// Rows read from the store for one chunk of a streamed export.
const CHUNK_ROWS: i64 = 500;
/// Exports written at the same time by one server.
pub const EXPORTS_AT_ONCE: usize = 3;
/// How long an export waits for its key's previous one (or for a free place) before it is
/// told to come back: long enough for a client that dropped an answer early, or downloads
/// two files back to back, not to be refused.
const EXPORT_WAIT: Duration = Duration::from_secs(5);

/// Who is writing an export now: at most [`EXPORTS_AT_ONCE`] in all, one per key. One more
/// waits up to [`EXPORT_WAIT`] for a place, then is answered 503 with `Retry-After`; a waiting
/// export holds nothing but its request.
#[derive(Clone)]
pub struct ExportGate {
    running: Arc<Semaphore>,
    keys: Arc<Mutex<HashSet<i64>>>,
    /// Told when a key's export ends.
    freed: Arc<Notify>,
    wait: Duration,
}

impl Default for ExportGate {
    fn default() -> Self {
        Self {
            running: Arc::new(Semaphore::new(EXPORTS_AT_ONCE)),
            keys: Arc::default(),
            freed: Arc::default(),
            wait: EXPORT_WAIT,
        }
    }
}

/// One export under way; it ends (and frees its places) when dropped with its stream.
struct ExportPass {
    keys: Arc<Mutex<HashSet<i64>>>,
    freed: Arc<Notify>,
    key_id: i64,
    _place: OwnedSemaphorePermit,
}

impl Drop for ExportPass {
    fn drop(&mut self) {
        if let Ok(mut keys) = self.keys.lock() {
            keys.remove(&self.key_id);
        }
        self.freed.notify_waiters();
    }
}

impl ExportGate {
    async fn enter(&self, key_id: i64) -> Result<ExportPass> {
        let busy = |message: &str| ApiError::new(Code::Unavailable, message);
        let deadline = tokio::time::Instant::now() + self.wait;
        loop {
            // Made before the check, so an export ending in between still wakes this one.
            let freed = self.freed.notified();
            {
                let mut keys = self.keys.lock().map_err(|_| ApiError::internal())?;
                if keys.insert(key_id) {
                    break;
                }
            }
            if tokio::time::timeout_at(deadline, freed).await.is_err() {
                return Err(busy(
                    "this key is already downloading an export; try again when it has finished",
                ));
            }
        }
        let place = tokio::time::timeout_at(deadline, self.running.clone().acquire_owned()).await;
        match place {
            Ok(Ok(place)) => Ok(ExportPass {
                keys: self.keys.clone(),
                freed: self.freed.clone(),
                key_id,
                _place: place,
            }),
            _ => {
                if let Ok(mut keys) = self.keys.lock() {
                    keys.remove(&key_id);
                }
                self.freed.notify_waiters();
                Err(busy(
                    "other exports are being written now; try again in a few seconds",
                ))
            }
        }
    }
}

/// `?money=minor|decimal`: how the money columns are written (minor units by default).
fn money_param(params: &Params) -> Result<MoneyFormat> {
    match params.get("money") {
        None => Ok(MoneyFormat::Minor),
        Some(raw) => MoneyFormat::parse(raw).ok_or_else(|| {
            ApiError::bad_request(format!(
                "query parameter \"money\" must be decimal or minor, not {:?}",
                import::shown(raw)
            ))
        }),
    }
}

/// The pets export's query: `money`.
pub struct PetsExportParams {
    pub money: MoneyFormat,
}

impl FromParams for PetsExportParams {
    const NAMES: &'static [&'static str] = &["money"];
    fn from_params(params: &Params) -> Result<Self> {
        Ok(Self {
            money: money_param(params)?,
        })
    }
}

/// The stock history export's query: `from`, `to` and `money`.
pub struct ChangesExportParams {
    pub range: DateRange,
    pub money: MoneyFormat,
}

impl FromParams for ChangesExportParams {
    const NAMES: &'static [&'static str] = &["from", "to", "money"];
    fn from_params(params: &Params) -> Result<Self> {
        Ok(Self {
            range: DateRange {
                from: date_param(params, "from")?,
                to: date_param(params, "to")?,
            },
            money: money_param(params)?,
        })
    }
}

/// The money cells' format and the currency's decimals.
async fn money_of(store: &Store, format: MoneyFormat) -> Result<Money> {
    let currency = store.profile().get().await?.currency;
    Ok(Money {
        format,
        decimals: money::decimals(&currency),
    })
}

/// A pet as the cells of [`COLUMNS`]: text guarded against formulas, money as asked.
fn pet_cells(pet: &PetLine, money: Money) -> Vec<String> {
    let number = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
    let text = |v: &str| guard(v).into_owned();
    let amount = |v: Option<i64>| match (v, money.format) {
        (Some(p), MoneyFormat::Decimal) => money::to_decimal(p, money.decimals),
        (v, _) => number(v),
    };
    vec![
        pet.id.to_string(),
        text(pet.sku.as_deref().unwrap_or_default()),
        pet.barcode.clone().unwrap_or_default(),
        text(&pet.name),
        text(&pet.category),
        pet.status
            .map(|s| s.as_str().to_owned())
            .unwrap_or_default(),
        amount(pet.price),
        number(pet.quantity),
        number(pet.reorder_point),
        text(pet.supplier.as_deref().unwrap_or_default()),
        amount(pet.cost),
        number(pet.reorder_quantity),
        number(pet.tax_rate),
    ]
}

/// A stock history entry as the cells of [`export::STOCK_CHANGE_COLUMNS`]. It has no money
/// column yet, so `money` changes nothing in it.
fn change_cells(change: &ChangeLine) -> Vec<String> {
    let text = |v: Option<&str>| guard(v.unwrap_or_default()).into_owned();
    vec![
        change.id.to_string(),
        change.pet_id.to_string(),
        change.delta.to_string(),
        change.quantity_after.to_string(),
        text(change.reason.as_deref()),
        text(Some(change.source.as_str())),
        change.order_id.map(|v| v.to_string()).unwrap_or_default(),
        text(change.key_name.as_deref()),
        change.at.clone(),
    ]
}

/// An export read a chunk at a time: `read(after, through)` gives the next rows after id
/// `after`, `cells` writes one, `id` says where the next chunk starts.
struct Chunks<T, R> {
    store: Store,
    read: R,
    cells: fn(&T, Money) -> Vec<String>,
    id: fn(&T) -> i64,
    money: Money,
    after: i64,
    through: i64,
    first: Option<Vec<u8>>,
    done: bool,
    _pass: ExportPass,
}

impl<T, R, F> Chunks<T, R>
where
    T: Send + 'static,
    R: Fn(&Store, i64, i64) -> F + Send + 'static,
    F: std::future::Future<Output = std::result::Result<Vec<T>, crate::store::StoreError>> + Send,
{
    async fn next(mut self) -> Option<(std::result::Result<Bytes, std::io::Error>, Self)> {
        if let Some(first) = self.first.take() {
            return Some((Ok(Bytes::from(first)), self));
        }
        if self.done {
            return None;
        }
        let rows = match (self.read)(&self.store, self.after, self.through).await {
            Ok(rows) => rows,
            Err(err) => {
                tracing::error!(%err, "reading an export failed part way");
                self.done = true;
                return Some((
                    Err(std::io::Error::other("the export could not be read")),
                    self,
                ));
            }
        };
        if (rows.len() as i64) < CHUNK_ROWS {
            self.done = true;
        }
        let last = rows.last()?;
        self.after = (self.id)(last);
        let money = self.money;
        let cells = self.cells;
        match csv::lines(rows.iter().map(|r| cells(r, money))) {
            Ok(bytes) => Some((Ok(Bytes::from(bytes)), self)),
            Err(_) => {
                self.done = true;
                Some((
                    Err(std::io::Error::other("the export could not be written")),
                    self,
                ))
            }
        }
    }
}

pub async fn pets(
    auth: Auth<Readonly>,
    State(s): State<AppState>,
    Query(params): Query<PetsExportParams>,
) -> Result<Response> {
    let pass = s.exports.enter(auth.caller.key_id).await?;
    let store = s.app.store().clone();
    let money = money_of(&store, params.money).await?;
    let through = store.export().last_pet_id().await?;
    let chunks = Chunks {
        store,
        read: |store: &Store, after, through| {
            let store = store.clone();
            async move { store.export().pets(after, through, CHUNK_ROWS).await }
        },
        cells: pet_cells,
        id: |p: &PetLine| p.id,
        money,
        after: 0,
        through,
        first: Some(csv::lines([COLUMNS])?),
        done: false,
        _pass: pass,
    };
    Ok(csv::stream_response(
        futures_util::stream::unfold(chunks, Chunks::next),
        Some("pets.csv"),
    ))
}

pub async fn stock_changes(
    auth: Auth<Readonly>,
    State(s): State<AppState>,
    Query(params): Query<ChangesExportParams>,
) -> Result<Response> {
    let range = params.range;
    if let (Some(from), Some(to)) = (range.from, range.to) {
        if from > to {
            return Err(ApiError::bad_request("\"from\" must not be after \"to\""));
        }
    }
    let pass = s.exports.enter(auth.caller.key_id).await?;
    let store = s.app.store().clone();
    let tz = store.profile().get().await?.tz();
    let money = money_of(&store, params.money).await?;
    let changes = ChangeRange {
        start: range
            .from
            .map(|d| time::format(report::start_of_day(tz, d))),
        end: range
            .to
            .and_then(|d| d.succ_opt())
            .map(|d| time::format(report::start_of_day(tz, d))),
    };
    let through = store.export().last_stock_change_id().await?;
    let chunks = Chunks {
        store,
        read: move |store: &Store, after, through| {
            let store = store.clone();
            let changes = changes.clone();
            async move {
                store
                    .export()
                    .stock_changes(changes, after, through, CHUNK_ROWS)
                    .await
            }
        },
        cells: |c: &ChangeLine, _| change_cells(c),
        id: |c: &ChangeLine| c.id,
        money,
        after: 0,
        through,
        first: Some(csv::lines([export::STOCK_CHANGE_COLUMNS])?),
        done: false,
        _pass: pass,
    };
    Ok(csv::stream_response(
        futures_util::stream::unfold(chunks, Chunks::next),
        Some("stock-changes.csv"),
    ))
}

/// `?dryRun=true|false&money=minor|decimal`.
pub struct ImportParams {
    pub dry_run: bool,
    pub money: MoneyFormat,
}

impl FromParams for ImportParams {
    const NAMES: &'static [&'static str] = &["dryRun", "money"];
    fn from_params(params: &Params) -> Result<Self> {
        let money = money_param(params)?;
        let dry_run = match params.get("dryRun") {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "query parameter \"dryRun\" must be true or false, not {other:?}"
                )))
            }
        };
        Ok(Self { dry_run, money })
    }
}

fn is_csv(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("text/csv"))
}

pub async fn import_pets(
    auth: Auth<Staff>,
    State(s): State<AppState>,
    headers: HeaderMap,
    Query(params): Query<ImportParams>,
    body: Bytes,
) -> Result<Response> {
    if !is_csv(&headers) {
        return Err(ApiError::new(
            Code::UnsupportedMediaType,
            "the body must be CSV (Content-Type: text/csv)",
        ));
    }
    if body.len() > BODY_MAX {
        return Err(ApiError::new(
            Code::PayloadTooLarge,
            format!(
                "the CSV file is larger than {}; split it and import the parts",
                crate::contract::kib(crate::contract::IMPORT_BYTES.max)
            ),
        ));
    }
    let name = auth.key_name();
    let money = money_of(s.app.store(), params.money).await?;
    let (rows, mut errors) = tokio::task::spawn_blocking(move || import::parse(&body, money))
        .await
        .map_err(|_| ApiError::internal())?;
    let dry_run = params.dry_run || !errors.is_empty();
    let mut summary = s.app.store().import().pets(rows, dry_run, name).await?;
    if !errors.is_empty() {
        errors.append(&mut summary.errors);
        errors.sort_by_key(|e| e.line);
        errors.truncate(import::ERRORS_MAX);
        summary.errors = errors;
    }
    if !summary.errors.is_empty() {
        let count = summary.errors.len();
        let errors = serde_json::to_value(&summary.errors).unwrap_or_default();
        return Err(ApiError::new(
            Code::ValidationFailed,
            format!(
                "the file has {count} error{}; nothing was imported",
                if count == 1 { "" } else { "s" }
            ),
        )
        .with_errors(errors));
    }
    Ok(respond::json(&summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick_gate() -> ExportGate {
        ExportGate {
            wait: Duration::from_millis(20),
            ..ExportGate::default()
        }
    }

    #[tokio::test]
    async fn a_key_writes_one_export_at_a_time_and_the_server_a_few() {
        let gate = quick_gate();
        let first = gate.enter(1).await.expect("a first export");
        let again = gate
            .enter(1)
            .await
            .map(|_| ())
            .expect_err("the same key again");
        assert_eq!(again.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(
            again.retry_after.is_some(),
            "a busy answer says when to come back"
        );
        let mut others = Vec::new();
        for key in 2..=EXPORTS_AT_ONCE as i64 {
            others.push(gate.enter(key).await.expect("room for another key"));
        }
        assert!(
            gate.enter(99).await.is_err(),
            "past the server's few at once"
        );
        drop(first);
        let next = gate
            .enter(1)
            .await
            .expect("the key's export ended, so it may start another");
        assert!(gate.enter(100).await.is_err());
        drop(others);
        drop(next);
        assert!(gate.enter(100).await.is_ok());
    }

    #[tokio::test]
    async fn an_export_waits_for_its_key_s_previous_one_to_end() {
        let gate = ExportGate::default();
        let first = gate.enter(7).await.expect("a first export");
        let second = tokio::spawn({
            let gate = gate.clone();
            async move { gate.enter(7).await.map(|_| ()) }
        });
        tokio::task::yield_now().await;
        drop(first);
        second
            .await
            .unwrap()
            .expect("the second starts once the first has ended");
    }
}
