-- Shifts of a till's cash drawer (interface 1.2). A shift opens with the cash counted into
-- the drawer and closes with the cash counted out of it. One open shift per till: the
-- partial unique index holds it even against writers the store's checks do not see.
-- A sale or refund records, when it is written, the id of the open shift of its till, so a
-- shift's figures are read from what was attached to it and never change once it is closed.
CREATE TABLE shifts (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    till         TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status = 'open' OR status = 'closed'),
    opened_at    TEXT NOT NULL,
    opened_by    TEXT,
    opening_cash INTEGER NOT NULL CHECK (opening_cash >= 0),
    closed_at    TEXT,
    closed_by    TEXT,
    counted_cash INTEGER CHECK (counted_cash >= 0)
);
CREATE UNIQUE INDEX shifts_one_open_per_till ON shifts(till) WHERE status = 'open';
CREATE INDEX shifts_by_till ON shifts(till, id);

ALTER TABLE sales ADD COLUMN shift_id INTEGER;
ALTER TABLE refunds ADD COLUMN shift_id INTEGER;
CREATE INDEX sales_by_shift ON sales(shift_id, id) WHERE shift_id IS NOT NULL;
CREATE INDEX refunds_by_shift ON refunds(shift_id, id) WHERE shift_id IS NOT NULL;
