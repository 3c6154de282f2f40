-- Refunds of sales (interface 1.2). A refund gives back part of a sale's lines; the sale's
-- `refunded` is the sum of its refunds. Restocked units come back with the stock history
-- source `refund`: SQLite cannot alter a CHECK, so `stock_changes` is rebuilt with the value
-- added, every column, row and index kept (`allow_refund_source` in src/store/migrate.rs,
-- run right after this file).
ALTER TABLE sales ADD COLUMN refunded INTEGER NOT NULL DEFAULT 0;

CREATE TABLE refunds (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    sale_id    INTEGER NOT NULL REFERENCES sales(id),
    created_at TEXT NOT NULL,
    amount     INTEGER NOT NULL CHECK (amount >= 0),
    tax        INTEGER NOT NULL,
    method     TEXT NOT NULL CHECK (method = 'cash' OR method = 'card' OR method = 'other'),
    reason     TEXT NOT NULL,
    restock    INTEGER NOT NULL CHECK (restock IN (0, 1)),
    till       TEXT,
    key_name   TEXT,
    staff_id   INTEGER
);
CREATE INDEX refunds_by_sale ON refunds(sale_id, id);
CREATE INDEX refunds_by_created ON refunds(created_at, id);

CREATE TABLE refund_lines (
    refund_id INTEGER NOT NULL REFERENCES refunds(id),
    line      INTEGER NOT NULL,
    sale_id   INTEGER NOT NULL,
    pet_id    INTEGER NOT NULL,
    quantity  INTEGER NOT NULL CHECK (quantity > 0),
    amount    INTEGER NOT NULL CHECK (amount >= 0),
    tax       INTEGER NOT NULL,
    PRIMARY KEY (refund_id, line)
) WITHOUT ROWID;
CREATE INDEX refund_lines_by_sale ON refund_lines(sale_id, pet_id);
