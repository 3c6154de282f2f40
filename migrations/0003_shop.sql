-- A shop's system: selling codes and prices on pets, the store profile, prices and times on
-- orders, reorder points, stocktakes, and the history sources `count` and `import`.

-- sku_fold is the lower-case SKU: SKUs are unique case-insensitively.
ALTER TABLE pets ADD COLUMN sku TEXT;
ALTER TABLE pets ADD COLUMN sku_fold TEXT;
ALTER TABLE pets ADD COLUMN barcode TEXT;
ALTER TABLE pets ADD COLUMN price INTEGER CHECK (price BETWEEN 0 AND 100000000);
CREATE UNIQUE INDEX pets_by_sku ON pets(sku_fold) WHERE sku_fold IS NOT NULL;
CREATE UNIQUE INDEX pets_by_barcode ON pets(barcode) WHERE barcode IS NOT NULL;

ALTER TABLE inventory ADD COLUMN reorder_point INTEGER CHECK (reorder_point BETWEEN 0 AND 1000000);
CREATE INDEX inventory_low ON inventory(pet_id) WHERE reorder_point IS NOT NULL AND quantity <= reorder_point;

-- The price at the moment of the sale; created_at is the order's placedAt.
ALTER TABLE orders ADD COLUMN unit_price INTEGER;
ALTER TABLE orders ADD COLUMN completed_at TEXT;
CREATE INDEX orders_by_placed ON orders(created_at);
CREATE INDEX orders_by_completed ON orders(completed_at) WHERE completed_at IS NOT NULL;

-- A cancelled order is deleted (its id answers 404); the daily report still counts it on the
-- day it was placed and the day it was cancelled.
CREATE TABLE cancelled_orders (
    id           INTEGER PRIMARY KEY,
    pet_id       INTEGER NOT NULL,
    quantity     INTEGER NOT NULL,
    unit_price   INTEGER,
    placed_at    TEXT NOT NULL,
    cancelled_at TEXT NOT NULL
);
CREATE INDEX cancelled_orders_by_placed ON cancelled_orders(placed_at);
CREATE INDEX cancelled_orders_by_cancelled ON cancelled_orders(cancelled_at);

-- One row at most; a NULL column means the default (the name "Pet Store", USD, the
-- machine's time zone).
CREATE TABLE store_profile (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    name     TEXT,
    currency TEXT,
    timezone TEXT
);

CREATE TABLE stocktakes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    status     TEXT NOT NULL CHECK (status IN ('open', 'applied')),
    note       TEXT,
    created_at TEXT NOT NULL,
    applied_at TEXT
);

-- expected: the pet's stock when it was counted. Applying adds the net change since then.
CREATE TABLE stocktake_lines (
    stocktake_id INTEGER NOT NULL REFERENCES stocktakes(id) ON DELETE CASCADE,
    pet_id       INTEGER NOT NULL,
    counted      INTEGER NOT NULL CHECK (counted BETWEEN 0 AND 1000000),
    counted_at   TEXT NOT NULL,
    expected     INTEGER NOT NULL,
    PRIMARY KEY (stocktake_id, pet_id)
) WITHOUT ROWID;

-- The history's source gains 'count' and 'import': SQLite cannot alter a CHECK, so the
-- table is rebuilt with its CHECK widened, keeping every column (others' migrations may have
-- added some before this one runs) and index. See `widen_stock_change_sources` in
-- src/store/migrate.rs, run right after this file.
CREATE INDEX stock_changes_by_at ON stock_changes(at, id);
