//! The interface's facts, written once: bounds, plans and their quotas, roles, ban thresholds,
//! error codes with their statuses, and the operation table. Plain data, no behaviour.
//!
//! The server reads its limits from here (the domain's bounds, the plans' quotas, the
//! idempotency lifetime, the status of each error [`Code`]), and tests/api/bounds.rs holds
//! every bound the document publishes against the running server. `petstore contract-facts` prints the same data as JSON; it is committed
//! as `openapi/facts.json`, which `openapi/generate.py` reads to write the OpenAPI document.
//! `cargo test` (tests/api/openapi.rs) fails when either file is stale, and holds the table of
//! operations against the router and the roles against the running server.
//!
//! To add or change a fact: edit it here, then
//! `cargo run -q -- contract-facts > openapi/facts.json && python3 openapi/generate.py`.

use serde::Serialize;

/// Characters of a search text `q`, after trimming (longer is 400).
pub const SEARCH: Bound = Bound::new(0, 200);
/// Characters of a name (pet, category, key), as sent (it is stored trimmed).
pub const NAME: Bound = Bound::new(1, 100);
/// Characters of a category's description, as sent (stored trimmed; empty means none).
pub const DESCRIPTION: Bound = Bound::new(0, 1_000);
/// Characters of a stock change's reason, as sent (stored trimmed; empty means none).
pub const REASON: Bound = Bound::new(0, 200);
/// Units of one pet in stock.
pub const STOCK: Bound = Bound::new(0, 1_000_000);
/// A stock adjustment's `delta` (never 0).
pub const DELTA: Bound = Bound::new(-1_000_000, 1_000_000);
/// Units in one order.
pub const QUANTITY: Bound = Bound::new(1, 10_000);
/// Records in one page (`limit`), default [`LIMIT_DEFAULT`].
pub const LIMIT: Bound = Bound::new(1, 500);
/// Records in a page when the client does not say.
pub const LIMIT_DEFAULT: i64 = 50;
/// Ids in one `ids` filter.
pub const IDS: Bound = Bound::new(1, 100);
/// Characters of an `Idempotency-Key`.
pub const IDEMPOTENCY_KEY: Bound = Bound::new(1, 255);
/// An enterprise key's requests per minute.
pub const PER_MINUTE: Bound = Bound::new(1, 1_000_000);
/// An enterprise key's requests per day.
pub const PER_DAY: Bound = Bound::new(1, 100_000_000);
/// Bytes of a request body.
pub const BODY_BYTES: Bound = Bound::new(0, 64 * 1024);
/// Digits of a staff member's PIN.
pub const PIN: Bound = Bound::new(4, 8);
/// Hours a staff member's session lasts without use.
pub const SESSION_IDLE_HOURS: i64 = 12;
/// Wrong PINs for one name, within [`PIN_LOCK_MINUTES`], that lock the name that long.
pub const PIN_FAILURES: i64 = 5;
/// See [`PIN_FAILURES`].
pub const PIN_LOCK_MINUTES: i64 = 15;
/// Hours an `Idempotency-Key` is remembered.
pub const IDEMPOTENCY_HOURS: i64 = 24;
/// Characters of a pet's `sku` (`A–Z a–z 0–9 . _ -`).
pub const SKU: Bound = Bound::new(1, 64);
/// A pet's `price`, in the minor unit of the store's currency.
pub const PRICE: Bound = Bound::new(0, 100_000_000);
/// An inventory item's `reorderPoint`.
pub const REORDER_POINT: Bound = Bound::new(0, 1_000_000);
/// Days one daily report covers (default [`REPORT_DAYS_DEFAULT`]).
pub const REPORT_DAYS: Bound = Bound::new(1, 366);
/// Days a daily report covers when the client does not say.
pub const REPORT_DAYS_DEFAULT: i64 = 30;
/// Bytes of a CSV import body.
pub const IMPORT_BYTES: Bound = Bound::new(0, 5 * 1024 * 1024);
/// A tax rate in basis points (2,000 is 20 %): the store's `defaultTaxRate`, a pet's `taxRate`.
pub const TAX_RATE: Bound = Bound::new(0, 10_000);
/// Cash counted into or out of a till's drawer (a shift's `openingCash`, `countedCash`), in
/// minor units.
pub const CASH: Bound = Bound::new(0, 1_000_000_000_000);
/// Pets on one sheet of shelf labels (`ids`; one listed twice prints twice).
pub const LABEL_PETS: Bound = Bound::new(1, 200);
/// Copies of each pet's label on one sheet.
pub const LABEL_COPIES: Bound = Bound::new(1, 50);
/// Labels on one sheet: pets times copies.
pub const LABELS: Bound = Bound::new(1, 1_000);
/// An animal's `breed` and `colour`, in characters.
pub const BREED: Bound = Bound::new(0, 100);
/// Where an animal came from (`animal.source`: the breeder or supplier), in characters.
pub const ANIMAL_SOURCE: Bound = Bound::new(0, 200);
/// Why a pet is on hold (`hold.reason`), in characters.
pub const HOLD_REASON: Bound = Bound::new(1, 200);
/// A care entry's `note`, in characters.
pub const CARE_NOTE: Bound = Bound::new(0, 1_000);
/// A care entry's `product` (the vaccine or medicine), in characters.
pub const CARE_PRODUCT: Bound = Bound::new(0, 100);
/// A care entry's `weightGrams`.
pub const WEIGHT_GRAMS: Bound = Bound::new(1, 200_000);
/// How many days ahead `GET /store/care/due` looks (`within`), and its default.
pub const CARE_WITHIN: Bound = Bound::new(0, 60);
pub const CARE_WITHIN_DEFAULT: i64 = 7;

/// A pet's `reorderQuantity`: the units a purchase order asks for when it runs low.
pub const REORDER_QUANTITY: Bound = Bound::new(1, 1_000_000);

/// Lines in one sale.
pub const SALE_LINES: Bound = Bound::new(1, 100);
/// Payments in one sale.
pub const PAYMENTS: Bound = Bound::new(1, 5);
/// One payment's `amount`, in minor units.
pub const PAYMENT_AMOUNT: Bound = Bound::new(0, 1_000_000_000_000_000);
/// Characters of a till's name (a sale's, a refund's or a shift's `till`).
pub const TILL: Bound = Bound::new(1, 40);
/// Characters of a sale's `note`.
pub const SALE_NOTE: Bound = Bound::new(0, 500);
/// Characters of a phone number (a sale's customer, a supplier).
pub const PHONE: Bound = Bound::new(0, 40);
/// Characters of an email address (a sale's customer, a supplier).
pub const EMAIL: Bound = Bound::new(0, 254);
/// Lines in one refund.
pub const REFUND_LINES: Bound = Bound::new(1, 100);
/// Characters of a refund's `reason`.
pub const REFUND_REASON: Bound = Bound::new(1, 200);
/// Lines in one purchase order, and in one receipt of goods against it.
pub const PURCHASE_LINES: Bound = Bound::new(1, 200);
/// Characters of a purchase order's `note`.
pub const PURCHASE_NOTE: Bound = Bound::new(0, 1_000);
/// Characters of a supplier's `contact`.
pub const CONTACT: Bound = Bound::new(0, 100);

/// An inclusive range of whole numbers (a count of characters, units or requests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bound {
    pub min: i64,
    pub max: i64,
}

impl Bound {
    pub const fn new(min: i64, max: i64) -> Self {
        Self { min, max }
    }

    /// The upper bound as a size (the bounds that count things are never negative).
    pub const fn max_usize(self) -> usize {
        self.max as usize
    }

    /// The upper bound as an unsigned count.
    pub const fn max_u64(self) -> u64 {
        self.max as u64
    }

    pub const fn contains(self, n: i64) -> bool {
        self.min <= n && n <= self.max
    }
}

/// A plan and the quota it grants (`None`: the numbers set on the key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanFact {
    pub name: &'static str,
    pub per_minute: Option<u64>,
    pub per_day: Option<u64>,
}

/// The plans, cheapest first. Requests without a valid key count under the first.
pub const PLANS: &[PlanFact] = &[
    PlanFact {
        name: "free",
        per_minute: Some(60),
        per_day: Some(1_000),
    },
    PlanFact {
        name: "pro",
        per_minute: Some(300),
        per_day: Some(10_000),
    },
    PlanFact {
        name: "business",
        per_minute: Some(1_000),
        per_day: Some(100_000),
    },
    PlanFact {
        name: "enterprise",
        per_minute: None,
        per_day: None,
    },
];

/// The quota of the first admin key an empty store makes (on the enterprise plan).
pub const FIRST_ADMIN_PER_MINUTE: u64 = 10_000;
/// See [`FIRST_ADMIN_PER_MINUTE`].
pub const FIRST_ADMIN_PER_DAY: u64 = 1_000_000;

/// A role and what it adds to the roles before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RoleFact {
    pub name: &'static str,
    pub adds: &'static str,
}

/// The roles, least first; each may do everything the ones before it may.
pub const ROLES: &[RoleFact] = &[
    RoleFact {
        name: "readonly",
        adds: "reads",
    },
    RoleFact {
        name: "pos",
        adds: "places, completes and cancels orders",
    },
    RoleFact {
        name: "staff",
        adds: "edits pets, categories and stock",
    },
    RoleFact {
        name: "admin",
        adds: "manages keys",
    },
];

/// Default thresholds of rate limiting and bans (each is also a setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Defaults {
    /// 429s in one window after which a caller is banned.
    pub ban_after: u32,
    /// The window 429s are counted in, in seconds.
    pub ban_window_secs: u64,
    /// How long a ban lasts, in seconds.
    pub ban_secs: u64,
    /// Seconds before a request is answered 408.
    pub request_timeout_secs: u64,
}

/// See [`Defaults`].
pub const DEFAULTS: Defaults = Defaults {
    ban_after: 30,
    ban_window_secs: 60,
    ban_secs: 900,
    request_timeout_secs: 30,
};

/// Writes the table of error codes once: the [`Code`] enum, its wire spelling, its status and
/// when it is answered, all from one row per code (so a code cannot lack a status).
macro_rules! codes {
    ($($variant:ident = $code:literal, $status:literal, $when:expr;)*) => {
        /// Every error code of the interface. Each comes with one HTTP status, always.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Code {
            $($variant,)*
        }

        impl Code {
            /// Every code, by status (the order the document lists them in).
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code as sent in the Error object (`snake_case`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $code,)*
                }
            }

            /// The HTTP status this code always comes with.
            pub const fn status(self) -> u16 {
                match self {
                    $(Code::$variant => $status,)*
                }
            }

            /// When the interface answers this code (the document's prose).
            pub fn when(self) -> String {
                match self {
                    $(Code::$variant => String::from($when),)*
                }
            }
        }
    };
}

codes! {
    BadRequest = "bad_request", 400,
        "malformed JSON, wrong JSON type, unknown field, bad or unknown query parameter";
    Unauthorized = "unauthorized", 401, "no key, unknown key or revoked key";
    Forbidden = "forbidden", 403, "the key's role may not do this";
    NotFound = "not_found", 404,
        "no such record or route (also an id in the path that is not a positive int64)";
    MethodNotAllowed = "method_not_allowed", 405, "known path, other method";
    RequestTimeout = "request_timeout", 408, format!(
        "the request took longer than the server's request timeout ({} s)",
        DEFAULTS.request_timeout_secs
    );
    Conflict = "conflict", 409,
        "the request clashes with current state, e.g. the same Idempotency-Key is still being \
         processed, or the change would leave no active admin key or no enabled admin staff \
         member";
    InsufficientStock = "insufficient_stock", 409, "not enough units in stock";
    PetNotAvailable = "pet_not_available", 409, "the pet's status is neither `available` nor unset";
    OrderAlreadyComplete = "order_already_complete", 409,
        "a completed order cannot be cancelled or reopened";
    CategoryInUse = "category_in_use", 409, "pets still belong to the category";
    PetHasOpenOrders = "pet_has_open_orders", 409, "the pet still has incomplete orders";
    DuplicateName = "duplicate_name", 409,
        "another category, or another staff member, already has this name (case-insensitive)";
    DuplicateCode = "duplicate_code", 409,
        "another pet already has this `sku` (case-insensitive) or `barcode`";
    StocktakeClosed = "stocktake_closed", 409,
        "the stocktake is already applied: it can no longer be counted, applied or discarded";
    OverReceipt = "over_receipt", 409,
        "receiving more of a purchase order's line than was ordered and not yet received";
    PurchaseOrderClosed = "purchase_order_closed", 409,
        "changing a received or cancelled purchase order (receiving included)";
    OnHold = "on_hold", 409, "an order or a sale for a pet on hold (until the end of its `hold.until`)";
    RefundExceedsSale = "refund_exceeds_sale", 409,
        "refunding more of a sale's line than was sold and not yet refunded";
    ShiftOpen = "shift_open", 409, "opening a shift for a till that has one open";
    ShiftClosed = "shift_closed", 409, "closing a shift that is closed";
    Gone = "gone", 410, "a deprecated operation past its sunset date";
    PreconditionFailed = "precondition_failed", 412, "`If-Match` does not match the current `ETag`";
    PayloadTooLarge = "payload_too_large", 413, format!("body over {}", kib(BODY_BYTES.max));
    UnsupportedMediaType = "unsupported_media_type", 415,
        "the body is not `application/json` (or `application/merge-patch+json` on PATCH)";
    MisdirectedRequest = "misdirected_request", 421,
        "the request's `Host` is a name this server does not answer for (DNS rebinding); \
         addresses, `localhost` and the computer's own name are always answered, other names \
         once allowed with `--allow-host`";
    ValidationFailed = "validation_failed", 422,
        "missing required field, value out of bounds or outside its enumeration";
    UnknownCategory = "unknown_category", 422, "`categoryId` names no category";
    UnknownPet = "unknown_pet", 422, "`petId` names no pet";
    IdempotencyKeyReused = "idempotency_key_reused", 422,
        "the same `Idempotency-Key` was used with another body";
    PaymentMismatch = "payment_mismatch", 422,
        "a sale's payments do not cover its total, or a card or other payment exceeds it \
         (only cash may, the excess being the change)";
    BuyerRequired = "buyer_required", 422,
        "selling an individual animal without the buyer's `customer.name` and a `phone` or \
         an `email`";
    RateLimited = "rate_limited", 429,
        "over the minute or day limit of the plan; see `Retry-After`";
    TemporarilyBanned = "temporarily_banned", 429, format!(
        "more than {} rejections in one minute: banned for {} minutes; or {} wrong PINs for \
         one staff member's name within {} minutes: that name is locked for {} minutes; see \
         `Retry-After`",
        DEFAULTS.ban_after,
        DEFAULTS.ban_secs / 60,
        in_words(PIN_FAILURES),
        PIN_LOCK_MINUTES,
        PIN_LOCK_MINUTES,
    );
    Internal = "internal", 500, "a bug; the message leaks no internals";
    Unavailable = "unavailable", 503,
        "the store cannot serve now (e.g. the database stayed busy past its timeout)";
}

impl Code {
    /// The code spelled `code` on the wire, if the interface has one.
    pub fn parse(code: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == code)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// A size in bytes as the prose writes it (`64 KiB`, `5 MiB`).
pub fn kib(bytes: i64) -> String {
    if bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0 {
        format!("{} MiB", bytes / (1024 * 1024))
    } else {
        format!("{} KiB", bytes / 1024)
    }
}

/// A small count as the prose writes it ("five"); larger ones as digits.
fn in_words(n: i64) -> String {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    usize::try_from(n)
        .ok()
        .and_then(|i| WORDS.get(i))
        .map_or_else(|| n.to_string(), |w| (*w).to_owned())
}

/// An error code, the HTTP status it always comes with, and when it is answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorFact {
    pub code: Code,
    pub status: u16,
    pub when: String,
}

/// Every error code of the interface with its status and prose, by status.
pub fn errors() -> Vec<ErrorFact> {
    Code::ALL
        .iter()
        .map(|&code| ErrorFact {
            code,
            status: code.status(),
            when: code.when(),
        })
        .collect()
}

/// How settled an operation is; anything but `Stable` is sent as `X-Stability`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stability {
    Stable,
    Beta,
    Experimental,
}

impl Stability {
    /// The value sent as `X-Stability`; `None` for a stable operation, which sends none.
    pub const fn sent(self) -> Option<&'static str> {
        match self {
            Stability::Stable => None,
            Stability::Beta => Some("beta"),
            Stability::Experimental => Some("experimental"),
        }
    }
}

/// The operation served at `method` and `path` (the route's template, as in the table).
/// Looked up in a map made once: the middleware asks for every request.
pub fn operation(method: &str, path: &str) -> Option<&'static Operation> {
    type ByRoute = std::collections::HashMap<(&'static str, &'static str), &'static Operation>;
    static BY_ROUTE: std::sync::OnceLock<ByRoute> = std::sync::OnceLock::new();
    let by_route: &std::collections::HashMap<(&str, &str), &'static Operation> = BY_ROUTE
        .get_or_init(|| {
            // The first of any two rows for one route wins, as a search of the table would.
            OPERATIONS
                .iter()
                .rev()
                .map(|op| ((op.method, op.path), op))
                .collect()
        });
    by_route.get(&(method, path)).copied()
}

/// One operation of the interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Operation {
    pub method: &'static str,
    pub path: &'static str,
    pub operation_id: &'static str,
    pub tag: &'static str,
    /// The least role that may call it; `None`: no key needed.
    pub role: Option<&'static str>,
    pub stability: Stability,
    pub deprecated: bool,
    /// The most bytes its request body may have: [`BODY_BYTES`], or the bound it names
    /// (the document publishes that bound; the server reads this).
    #[serde(skip)]
    pub body_bytes: Bound,
}

const fn op(
    method: &'static str,
    path: &'static str,
    operation_id: &'static str,
    tag: &'static str,
    role: &'static str,
) -> Operation {
    Operation {
        method,
        path,
        operation_id,
        tag,
        role: Some(role),
        stability: Stability::Stable,
        deprecated: false,
        body_bytes: BODY_BYTES,
    }
}

/// An operation whose request body may be as large as `bound` (more than [`BODY_BYTES`]).
const fn large_body(operation: Operation, bound: Bound) -> Operation {
    Operation {
        body_bytes: bound,
        ..operation
    }
}

/// The most bytes of a request body kept for the request at `path` (a request path, not a
/// template): the largest of its operations' [`Operation::body_bytes`], else [`BODY_BYTES`].
/// No operation takes less than [`BODY_BYTES`] (a test says so), so only the few that take
/// more are matched against the path: this runs for every request with a body.
pub fn body_limit(path: &str) -> usize {
    OPERATIONS
        .iter()
        .filter(|op| op.body_bytes.max_usize() > BODY_BYTES.max_usize() && serves(op.path, path))
        .map(|op| op.body_bytes.max_usize())
        .fold(BODY_BYTES.max_usize(), usize::max)
}

/// Whether the route `template` (`/pets/{petId}`) serves the request path `path`.
fn serves(template: &str, path: &str) -> bool {
    let (mut want, mut have) = (template.split('/'), path.split('/'));
    loop {
        match (want.next(), have.next()) {
            (None, None) => return true,
            (Some(w), Some(h)) if w == h || (w.starts_with('{') && !h.is_empty()) => {}
            _ => return false,
        }
    }
}

const fn beta(operation: Operation) -> Operation {
    Operation {
        stability: Stability::Beta,
        ..operation
    }
}

const fn experimental(operation: Operation) -> Operation {
    Operation {
        stability: Stability::Experimental,
        ..operation
    }
}

const fn deprecated(operation: Operation) -> Operation {
    Operation {
        deprecated: true,
        ..operation
    }
}

const fn keyless(operation: Operation) -> Operation {
    Operation {
        role: None,
        ..operation
    }
}

/// Every operation of the interface, in the route table's order. The router serves exactly
/// these (tests/api/openapi.rs checks it both ways, and tests/api/roles.rs each role).
pub const OPERATIONS: &[Operation] = &[
    op("GET", "/pets", "listPets", "Pets", "readonly"),
    op("POST", "/pets", "createPet", "Pets", "staff"),
    deprecated(op("GET", "/pets/{petId}", "getPetById", "Pets", "readonly")),
    op("PUT", "/pets/{petId}", "replacePet", "Pets", "staff"),
    op("PATCH", "/pets/{petId}", "updatePet", "Pets", "staff"),
    op("DELETE", "/pets/{petId}", "deletePet", "Pets", "staff"),
    beta(op(
        "GET",
        "/pets/{petId}/care",
        "listCare",
        "Pets",
        "readonly",
    )),
    beta(op(
        "POST",
        "/pets/{petId}/care",
        "recordCare",
        "Pets",
        "staff",
    )),
    beta(op(
        "GET",
        "/store/care/due",
        "listCareDue",
        "Store",
        "readonly",
    )),
    beta(op(
        "GET",
        "/store/reports/animals",
        "animalsReport",
        "Store",
        "staff",
    )),
    op("GET", "/categories", "listCategories", "Pets", "readonly"),
    op("POST", "/categories", "createCategory", "Pets", "staff"),
    op(
        "GET",
        "/categories/{categoryId}",
        "getCategory",
        "Pets",
        "readonly",
    ),
    op(
        "PUT",
        "/categories/{categoryId}",
        "replaceCategory",
        "Pets",
        "staff",
    ),
    op(
        "PATCH",
        "/categories/{categoryId}",
        "updateCategory",
        "Pets",
        "staff",
    ),
    op(
        "DELETE",
        "/categories/{categoryId}",
        "deleteCategory",
        "Pets",
        "staff",
    ),
    op("GET", "/store/orders", "listOrders", "Store", "readonly"),
    op("POST", "/store/orders", "placeOrder", "Store", "pos"),
    op(
        "GET",
        "/store/orders/{orderId}",
        "getOrder",
        "Store",
        "readonly",
    ),
    op(
        "PATCH",
        "/store/orders/{orderId}",
        "updateOrder",
        "Store",
        "pos",
    ),
    op(
        "DELETE",
        "/store/orders/{orderId}",
        "cancelOrder",
        "Store",
        "pos",
    ),
    beta(op(
        "GET",
        "/store/cancelled-orders",
        "listCancelledOrders",
        "Store",
        "readonly",
    )),
    op(
        "GET",
        "/store/inventory",
        "listInventory",
        "Store",
        "readonly",
    ),
    op(
        "GET",
        "/store/inventory/{petId}",
        "getInventoryItem",
        "Store",
        "readonly",
    ),
    op(
        "PUT",
        "/store/inventory/{petId}",
        "setInventory",
        "Store",
        "staff",
    ),
    beta(op(
        "GET",
        "/store/inventory/{petId}/adjustments",
        "listStockChanges",
        "Store",
        "readonly",
    )),
    beta(op(
        "POST",
        "/store/inventory/{petId}/adjustments",
        "adjustInventory",
        "Store",
        "staff",
    )),
    beta(op("GET", "/admin/keys", "listKeys", "Admin", "admin")),
    beta(op("POST", "/admin/keys", "createKey", "Admin", "admin")),
    beta(op(
        "PATCH",
        "/admin/keys/{keyId}",
        "updateKey",
        "Admin",
        "admin",
    )),
    beta(op(
        "DELETE",
        "/admin/keys/{keyId}",
        "revokeKey",
        "Admin",
        "admin",
    )),
    beta(op(
        "DELETE",
        "/admin/keys/{keyId}/ban",
        "liftBan",
        "Admin",
        "admin",
    )),
    beta(op("GET", "/admin/staff", "listStaff", "Admin", "admin")),
    beta(op("POST", "/admin/staff", "createStaff", "Admin", "admin")),
    beta(op(
        "PATCH",
        "/admin/staff/{staffId}",
        "updateStaff",
        "Admin",
        "admin",
    )),
    beta(op(
        "DELETE",
        "/admin/staff/{staffId}/lock",
        "liftStaffLock",
        "Admin",
        "admin",
    )),
    beta(keyless(op(
        "POST", "/session", "signIn", "Admin", "readonly",
    ))),
    beta(op("DELETE", "/session", "signOut", "Admin", "readonly")),
    beta(op(
        "PATCH",
        "/store/inventory/{petId}",
        "updateInventoryItem",
        "Store",
        "staff",
    )),
    beta(op(
        "GET",
        "/store/profile",
        "getStoreProfile",
        "Store",
        "readonly",
    )),
    beta(op(
        "PATCH",
        "/store/profile",
        "updateStoreProfile",
        "Store",
        "admin",
    )),
    beta(op(
        "GET",
        "/store/reports/daily",
        "getDailyReport",
        "Store",
        "readonly",
    )),
    beta(op("GET", "/store/sales", "listSales", "Store", "readonly")),
    beta(op("POST", "/store/sales", "placeSale", "Store", "pos")),
    beta(op(
        "GET",
        "/store/sales/{saleId}",
        "getSale",
        "Store",
        "readonly",
    )),
    beta(op(
        "GET",
        "/store/sales/{saleId}/receipt",
        "getSaleReceipt",
        "Store",
        "readonly",
    )),
    beta(op(
        "GET",
        "/store/sales/{saleId}/refunds",
        "listSaleRefunds",
        "Store",
        "readonly",
    )),
    beta(op(
        "POST",
        "/store/sales/{saleId}/refunds",
        "refundSale",
        "Store",
        "staff",
    )),
    beta(op(
        "GET",
        "/store/shifts",
        "listShifts",
        "Store",
        "readonly",
    )),
    beta(op("POST", "/store/shifts", "openShift", "Store", "pos")),
    beta(op(
        "GET",
        "/store/shifts/{shiftId}",
        "getShift",
        "Store",
        "readonly",
    )),
    beta(op(
        "POST",
        "/store/shifts/{shiftId}/close",
        "closeShift",
        "Store",
        "pos",
    )),
    beta(op(
        "GET",
        "/store/stocktakes",
        "listStocktakes",
        "Store",
        "staff",
    )),
    beta(op(
        "POST",
        "/store/stocktakes",
        "createStocktake",
        "Store",
        "staff",
    )),
    beta(op(
        "GET",
        "/store/stocktakes/{stocktakeId}",
        "getStocktake",
        "Store",
        "staff",
    )),
    beta(op(
        "DELETE",
        "/store/stocktakes/{stocktakeId}",
        "deleteStocktake",
        "Store",
        "staff",
    )),
    beta(op(
        "PUT",
        "/store/stocktakes/{stocktakeId}/lines/{petId}",
        "countStocktakeLine",
        "Store",
        "staff",
    )),
    beta(op(
        "POST",
        "/store/stocktakes/{stocktakeId}/apply",
        "applyStocktake",
        "Store",
        "staff",
    )),
    beta(op(
        "GET",
        "/store/suppliers",
        "listSuppliers",
        "Store",
        "readonly",
    )),
    beta(op(
        "POST",
        "/store/suppliers",
        "createSupplier",
        "Store",
        "staff",
    )),
    beta(op(
        "GET",
        "/store/suppliers/{supplierId}",
        "getSupplier",
        "Store",
        "readonly",
    )),
    beta(op(
        "PATCH",
        "/store/suppliers/{supplierId}",
        "updateSupplier",
        "Store",
        "staff",
    )),
    beta(op(
        "DELETE",
        "/store/suppliers/{supplierId}",
        "deleteSupplier",
        "Store",
        "staff",
    )),
    beta(op(
        "GET",
        "/store/purchase-orders",
        "listPurchaseOrders",
        "Store",
        "readonly",
    )),
    beta(op(
        "POST",
        "/store/purchase-orders",
        "createPurchaseOrder",
        "Store",
        "staff",
    )),
    beta(op(
        "POST",
        "/store/purchase-orders/suggest",
        "suggestPurchaseOrder",
        "Store",
        "staff",
    )),
    beta(op(
        "GET",
        "/store/purchase-orders/{purchaseOrderId}",
        "getPurchaseOrder",
        "Store",
        "readonly",
    )),
    beta(op(
        "PUT",
        "/store/purchase-orders/{purchaseOrderId}",
        "replacePurchaseOrder",
        "Store",
        "staff",
    )),
    beta(op(
        "POST",
        "/store/purchase-orders/{purchaseOrderId}/send",
        "sendPurchaseOrder",
        "Store",
        "staff",
    )),
    beta(op(
        "POST",
        "/store/purchase-orders/{purchaseOrderId}/receive",
        "receivePurchaseOrder",
        "Store",
        "staff",
    )),
    beta(op(
        "POST",
        "/store/purchase-orders/{purchaseOrderId}/cancel",
        "cancelPurchaseOrder",
        "Store",
        "staff",
    )),
    beta(op(
        "GET",
        "/store/export/pets.csv",
        "exportPets",
        "Store",
        "readonly",
    )),
    beta(op(
        "GET",
        "/store/export/stock-changes.csv",
        "exportStockChanges",
        "Store",
        "readonly",
    )),
    large_body(
        beta(op(
            "POST",
            "/store/import/pets",
            "importPets",
            "Store",
            "staff",
        )),
        IMPORT_BYTES,
    ),
    beta(op(
        "GET",
        "/store/labels.svg",
        "printLabels",
        "Store",
        "readonly",
    )),
    beta(op(
        "GET",
        "/store/certificate",
        "getStoreCertificate",
        "Store",
        "readonly",
    )),
    beta(op("GET", "/admin/backups", "listBackups", "Admin", "admin")),
    beta(op("POST", "/admin/backups", "takeBackup", "Admin", "admin")),
    beta(op(
        "GET",
        "/admin/backups/{name}",
        "downloadBackup",
        "Admin",
        "admin",
    )),
    beta(op(
        "POST",
        "/admin/pairings",
        "createPairing",
        "Admin",
        "admin",
    )),
    beta(op(
        "GET",
        "/admin/pairings/{code}/qr.svg",
        "getPairingQr",
        "Admin",
        "admin",
    )),
    beta(keyless(op(
        "POST",
        "/pair",
        "pairDevice",
        "Admin",
        "readonly",
    ))),
    beta(op("DELETE", "/pair", "unpairDevice", "Admin", "readonly")),
    experimental(op("GET", "/events", "streamEvents", "Store", "readonly")),
    keyless(op("GET", "/health", "health", "Admin", "readonly")),
];

/// Everything above, as one serializable value.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Facts {
    pub bounds: Bounds,
    pub plans: &'static [PlanFact],
    pub first_admin: PlanFact,
    pub roles: &'static [RoleFact],
    pub defaults: Defaults,
    pub errors: Vec<ErrorFact>,
    pub operations: &'static [Operation],
}

/// The bounds by the name the document uses for them.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bounds {
    pub name: Bound,
    pub description: Bound,
    pub reason: Bound,
    pub stock: Bound,
    pub delta: Bound,
    pub quantity: Bound,
    pub limit: Bound,
    pub limit_default: i64,
    pub ids: Bound,
    pub idempotency_key: Bound,
    pub idempotency_hours: i64,
    pub per_minute: Bound,
    pub per_day: Bound,
    pub body_bytes: Bound,
    pub pin: Bound,
    pub session_idle_hours: i64,
    pub pin_failures: i64,
    pub pin_lock_minutes: i64,
    pub sku: Bound,
    pub price: Bound,
    pub reorder_point: Bound,
    pub report_days: Bound,
    pub report_days_default: i64,
    pub import_bytes: Bound,
    pub search: Bound,
    pub tax_rate: Bound,
    pub reorder_quantity: Bound,
    pub cash: Bound,
    pub label_pets: Bound,
    pub label_copies: Bound,
    pub labels: Bound,
    pub breed: Bound,
    pub animal_source: Bound,
    pub hold_reason: Bound,
    pub care_note: Bound,
    pub care_product: Bound,
    pub weight_grams: Bound,
    pub care_within: Bound,
    pub care_within_default: i64,
    pub sale_lines: Bound,
    pub payments: Bound,
    pub payment_amount: Bound,
    pub till: Bound,
    pub sale_note: Bound,
    pub phone: Bound,
    pub email: Bound,
    pub refund_lines: Bound,
    pub refund_reason: Bound,
    pub purchase_lines: Bound,
    pub purchase_note: Bound,
    pub contact: Bound,
}

/// The facts, gathered.
pub fn facts() -> Facts {
    Facts {
        bounds: Bounds {
            name: NAME,
            description: DESCRIPTION,
            reason: REASON,
            stock: STOCK,
            delta: DELTA,
            quantity: QUANTITY,
            limit: LIMIT,
            limit_default: LIMIT_DEFAULT,
            ids: IDS,
            idempotency_key: IDEMPOTENCY_KEY,
            idempotency_hours: IDEMPOTENCY_HOURS,
            per_minute: PER_MINUTE,
            per_day: PER_DAY,
            body_bytes: BODY_BYTES,
            pin: PIN,
            session_idle_hours: SESSION_IDLE_HOURS,
            pin_failures: PIN_FAILURES,
            pin_lock_minutes: PIN_LOCK_MINUTES,
            sku: SKU,
            price: PRICE,
            reorder_point: REORDER_POINT,
            report_days: REPORT_DAYS,
            report_days_default: REPORT_DAYS_DEFAULT,
            import_bytes: IMPORT_BYTES,
            search: SEARCH,
            tax_rate: TAX_RATE,
            reorder_quantity: REORDER_QUANTITY,
            cash: CASH,
            label_pets: LABEL_PETS,
            label_copies: LABEL_COPIES,
            labels: LABELS,
            breed: BREED,
            animal_source: ANIMAL_SOURCE,
            hold_reason: HOLD_REASON,
            care_note: CARE_NOTE,
            care_product: CARE_PRODUCT,
            weight_grams: WEIGHT_GRAMS,
            care_within: CARE_WITHIN,
            care_within_default: CARE_WITHIN_DEFAULT,
            sale_lines: SALE_LINES,
            payments: PAYMENTS,
            payment_amount: PAYMENT_AMOUNT,
            till: TILL,
            sale_note: SALE_NOTE,
            phone: PHONE,
            email: EMAIL,
            refund_lines: REFUND_LINES,
            refund_reason: REFUND_REASON,
            purchase_lines: PURCHASE_LINES,
            purchase_note: PURCHASE_NOTE,
            contact: CONTACT,
        },
        plans: PLANS,
        first_admin: PlanFact {
            name: "enterprise",
            per_minute: Some(FIRST_ADMIN_PER_MINUTE),
            per_day: Some(FIRST_ADMIN_PER_DAY),
        },
        roles: ROLES,
        defaults: DEFAULTS,
        errors: errors(),
        operations: OPERATIONS,
    }
}

/// The facts as the JSON committed in `openapi/facts.json` (pretty, with a final newline).
pub fn facts_json() -> String {
    let mut json = serde_json::to_string_pretty(&facts()).unwrap_or_default();
    json.push('\n');
    json
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::key::Role;
    use crate::limits::Plan;

    #[test]
    fn codes_are_unique_and_statuses_are_client_or_server_errors() {
        for (i, code) in Code::ALL.iter().enumerate() {
            assert!((400..600).contains(&code.status()), "{code}");
            assert!(
                Code::ALL[i + 1..]
                    .iter()
                    .all(|other| other.as_str() != code.as_str()),
                "{code} is spelled twice"
            );
            assert_eq!(Code::parse(code.as_str()), Some(*code));
        }
    }

    #[test]
    fn codes_are_listed_by_status() {
        let statuses: Vec<u16> = Code::ALL.iter().map(|c| c.status()).collect();
        let mut sorted = statuses.clone();
        sorted.sort_unstable();
        assert_eq!(statuses, sorted);
    }

    #[test]
    fn the_prose_states_the_numbers_the_server_uses() {
        assert_eq!(Code::PayloadTooLarge.when(), "body over 64 KiB");
        assert!(Code::RequestTimeout.when().ends_with("(30 s)"));
        assert_eq!(kib(IMPORT_BYTES.max), "5 MiB");
        assert_eq!(in_words(PIN_FAILURES), "five");
        assert_eq!(in_words(42), "42");
    }

    #[test]
    fn the_roles_and_plans_are_those_the_domain_parses_in_order() {
        let roles: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
        let listed: Vec<&str> = ROLES.iter().map(|r| r.name).collect();
        assert_eq!(roles, listed);
        let plans: Vec<&str> = Plan::ALL.iter().map(|p| p.as_str()).collect();
        let listed: Vec<&str> = PLANS.iter().map(|p| p.name).collect();
        assert_eq!(plans, listed);
    }

    #[test]
    fn every_operation_names_a_known_role_and_a_unique_id_and_route() {
        for (i, a) in OPERATIONS.iter().enumerate() {
            if let Some(role) = a.role {
                assert!(Role::parse(role).is_some(), "{}", a.operation_id);
            }
            for b in &OPERATIONS[i + 1..] {
                assert_ne!(a.operation_id, b.operation_id);
                assert!(
                    (a.method, a.path) != (b.method, b.path),
                    "{}",
                    b.operation_id
                );
            }
        }
    }

    /// The middleware keeps as much of a body as `body_limit` says: each operation's limit
    /// must be a bound the document publishes, and a request's path finds its operation's.
    #[test]
    fn every_operations_body_limit_is_a_published_bound_and_is_the_one_enforced_at_its_path() {
        let published = serde_json::to_value(facts().bounds).unwrap();
        let published: Vec<&serde_json::Value> = published
            .as_object()
            .unwrap()
            .values()
            .filter(|b| b.get("max").is_some())
            .collect();
        for op in OPERATIONS {
            let limit = serde_json::to_value(op.body_bytes).unwrap();
            assert!(published.contains(&&limit), "{}", op.operation_id);
            assert!(
                op.body_bytes.max_usize() >= BODY_BYTES.max_usize(),
                "{} takes less than BODY_BYTES: body_limit would not see it",
                op.operation_id
            );
            let path = op
                .path
                .replace("{petId}", "7")
                .replace('{', "x")
                .replace('}', "");
            assert!(body_limit(&path) >= op.body_bytes.max_usize(), "{path}");
        }
        assert_eq!(body_limit("/store/import/pets"), IMPORT_BYTES.max_usize());
        assert_eq!(body_limit("/pets/7"), BODY_BYTES.max_usize());
        assert_eq!(body_limit("/store/import/pets/7"), BODY_BYTES.max_usize());
        assert_eq!(body_limit("/store/import"), BODY_BYTES.max_usize());
        assert_eq!(body_limit("/nowhere"), BODY_BYTES.max_usize());
    }
}
