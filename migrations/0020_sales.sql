-- Selling at the counter (interface 1.2): a sale is one customer's basket, paid at once.
-- Each of its lines is also a completed order (orders.sale_id), so 1.0's orders, 1.1's
-- report and the stock history keep working.

-- The sale's number counts the store's sales from 1 without gaps. The last number given is
-- kept in one row, moved by the sale's own transaction: a sale that is refused, rolled back
-- or killed before it commits gives its number back with everything else.
CREATE TABLE sale_numbers (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    last INTEGER NOT NULL CHECK (last >= 0)
);
INSERT INTO sale_numbers (id, last) VALUES (1, 0);

-- placed_at: when the store received it; sold_at: when it was made (the till's clock for a
-- sale sent later). Money is in minor units; customer fields are empty when not given.
CREATE TABLE sales (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    number         INTEGER NOT NULL UNIQUE CHECK (number > 0),
    placed_at      TEXT NOT NULL,
    sold_at        TEXT NOT NULL,
    key_name       TEXT,
    staff_id       INTEGER,
    till           TEXT,
    subtotal       INTEGER NOT NULL,
    discount       INTEGER NOT NULL,
    tax            INTEGER NOT NULL,
    total          INTEGER NOT NULL,
    change         INTEGER NOT NULL CHECK (change >= 0),
    tax_included   INTEGER NOT NULL CHECK (tax_included IN (0, 1)),
    offline        INTEGER NOT NULL CHECK (offline IN (0, 1)),
    customer_name  TEXT,
    customer_phone TEXT,
    customer_email TEXT,
    note           TEXT
);
CREATE INDEX sales_by_sold_at ON sales(sold_at, id);
CREATE INDEX sales_by_till ON sales(till, id);
CREATE INDEX sales_by_staff ON sales(staff_id, id) WHERE staff_id IS NOT NULL;

-- A line as sold: the pet's name and codes then, its price, discount, rate and tax.
-- short_by: the units an offline sale could not take from stock.
CREATE TABLE sale_lines (
    sale_id    INTEGER NOT NULL REFERENCES sales(id),
    line       INTEGER NOT NULL CHECK (line >= 0),
    pet_id     INTEGER NOT NULL,
    name       TEXT NOT NULL,
    sku        TEXT,
    barcode    TEXT,
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    unit_price INTEGER NOT NULL,
    discount   INTEGER NOT NULL,
    tax_rate   INTEGER NOT NULL,
    tax        INTEGER NOT NULL,
    total      INTEGER NOT NULL,
    order_id   INTEGER NOT NULL,
    short_by   INTEGER CHECK (short_by > 0),
    PRIMARY KEY (sale_id, line)
) WITHOUT ROWID;

CREATE TABLE sale_payments (
    sale_id  INTEGER NOT NULL REFERENCES sales(id),
    position INTEGER NOT NULL,
    method   TEXT NOT NULL CHECK (method = 'cash' OR method = 'card' OR method = 'other'),
    amount   INTEGER NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (sale_id, position)
) WITHOUT ROWID;

ALTER TABLE orders ADD COLUMN sale_id INTEGER;
-- The covering index of a pet's orders carries every column an order answers with
-- (migration 16), sale_id now included.
DROP INDEX orders_by_pet;
CREATE INDEX orders_by_pet
    ON orders(pet_id, complete, id, quantity, ship_date, created_at, completed_at, unit_price,
              sale_id);
