-- The store's first schema: categories, pets, stock, orders, stock history, keys,
-- idempotency records and the change events kept for resuming subscribers.

-- AUTOINCREMENT: ids are never given out twice, so a deleted pet's history and sales never
-- pass to a new pet, and a cancelled order's id stays 404.

CREATE TABLE categories (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL,
    name_fold   TEXT NOT NULL UNIQUE,
    description TEXT
);

CREATE TABLE pets (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL,
    name_fold   TEXT NOT NULL,
    category_id INTEGER NOT NULL REFERENCES categories(id),
    status      TEXT CHECK (status IN ('available', 'pending', 'sold'))
);
CREATE INDEX pets_by_category ON pets(category_id, id);
-- Category and status together, so a list filtered by both (and its count) reads the index alone.
CREATE INDEX pets_by_category_status ON pets(category_id, status, id);
CREATE INDEX pets_by_status ON pets(status, id);
CREATE INDEX pets_by_name ON pets(name_fold, id);

CREATE TABLE inventory (
    pet_id   INTEGER PRIMARY KEY REFERENCES pets(id) ON DELETE CASCADE,
    quantity INTEGER NOT NULL CHECK (quantity >= 0)
);
CREATE INDEX inventory_by_quantity ON inventory(quantity, pet_id);

-- Orders outlive their pet: a completed sale stays on the books after the pet is deleted.
CREATE TABLE orders (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    pet_id     INTEGER NOT NULL,
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    ship_date  TEXT,
    complete   INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0, 1)),
    created_at TEXT NOT NULL
);
CREATE INDEX orders_by_pet ON orders(pet_id, complete, id);
CREATE INDEX orders_by_complete ON orders(complete, id);

CREATE TABLE stock_changes (
    id             INTEGER PRIMARY KEY,
    pet_id         INTEGER NOT NULL,
    delta          INTEGER NOT NULL,
    quantity_after INTEGER NOT NULL CHECK (quantity_after >= 0),
    reason         TEXT,
    source         TEXT NOT NULL CHECK (source IN ('order', 'cancel', 'set', 'adjustment')),
    order_id       INTEGER,
    key_name       TEXT,
    at             TEXT NOT NULL
);
CREATE INDEX stock_changes_by_pet ON stock_changes(pet_id, id);

CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('readonly', 'pos', 'staff', 'admin')),
    plan         TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
    per_minute   INTEGER,
    per_day      INTEGER,
    prefix       TEXT NOT NULL,
    secret_hash  TEXT NOT NULL UNIQUE,
    created_at   TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT
);

-- An idempotent request's first answer, stored in the transaction that acted on it.
CREATE TABLE idempotency (
    key_id       INTEGER NOT NULL,
    idem_key     TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL,
    body         TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (key_id, idem_key)
) WITHOUT ROWID;
CREATE INDEX idempotency_by_age ON idempotency(created_at);

CREATE TABLE events (
    id   INTEGER PRIMARY KEY AUTOINCREMENT,
    type TEXT NOT NULL,
    at   TEXT NOT NULL,
    data TEXT NOT NULL
);

-- Per-day request counts of each caller, so a restart gives no one a fresh day.
CREATE TABLE rate_usage (
    subject   TEXT PRIMARY KEY,
    day_start INTEGER NOT NULL,
    count     INTEGER NOT NULL
) WITHOUT ROWID;
