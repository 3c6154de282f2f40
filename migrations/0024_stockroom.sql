-- The stockroom (interface 1.2): suppliers, what a pet costs and how many to reorder, and
-- purchase orders with their lines. Units received come into stock with the history source
-- `received`, naming the order (`stock_changes.purchase_order_id`): SQLite cannot alter a
-- CHECK, so `stock_changes` is rebuilt with the value added as one more comparison (no `IN`
-- list, see migration 18), every column, row and index kept (`allow_received_source` in
-- src/store/migrate.rs, run right after this file).
CREATE TABLE suppliers (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    name      TEXT NOT NULL,
    name_fold TEXT NOT NULL UNIQUE,
    contact   TEXT,
    phone     TEXT,
    email     TEXT,
    note      TEXT
);

ALTER TABLE pets ADD COLUMN supplier_id INTEGER REFERENCES suppliers(id);
ALTER TABLE pets ADD COLUMN cost INTEGER CHECK (cost BETWEEN 0 AND 100000000);
ALTER TABLE pets ADD COLUMN reorder_quantity INTEGER
    CHECK (reorder_quantity BETWEEN 1 AND 1000000);
CREATE INDEX pets_by_supplier ON pets(supplier_id, id) WHERE supplier_id IS NOT NULL;

-- The last purchase order number given, moved by the order's own transaction (as sales').
CREATE TABLE purchase_order_numbers (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    last INTEGER NOT NULL CHECK (last >= 0)
);
INSERT INTO purchase_order_numbers (id, last) VALUES (1, 0);

CREATE TABLE purchase_orders (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    number      INTEGER NOT NULL UNIQUE CHECK (number > 0),
    supplier_id INTEGER NOT NULL REFERENCES suppliers(id),
    status      TEXT NOT NULL CHECK (status = 'draft' OR status = 'sent' OR status = 'partial'
                                     OR status = 'received' OR status = 'cancelled'),
    note        TEXT,
    created_at  TEXT NOT NULL,
    sent_at     TEXT,
    closed_at   TEXT
);
CREATE INDEX purchase_orders_by_supplier ON purchase_orders(supplier_id, id);
CREATE INDEX purchase_orders_by_status ON purchase_orders(status, id);

-- `received` never passes `ordered`: the CHECK is the last word when two receipts meet.
CREATE TABLE purchase_order_lines (
    purchase_order_id INTEGER NOT NULL REFERENCES purchase_orders(id),
    line              INTEGER NOT NULL CHECK (line >= 0),
    pet_id            INTEGER NOT NULL,
    ordered           INTEGER NOT NULL CHECK (ordered BETWEEN 1 AND 1000000),
    received          INTEGER NOT NULL DEFAULT 0 CHECK (received >= 0 AND received <= ordered),
    cost              INTEGER NOT NULL CHECK (cost BETWEEN 0 AND 100000000),
    PRIMARY KEY (purchase_order_id, line)
) WITHOUT ROWID;
CREATE INDEX purchase_order_lines_by_pet ON purchase_order_lines(pet_id);

ALTER TABLE stock_changes ADD COLUMN purchase_order_id INTEGER;
