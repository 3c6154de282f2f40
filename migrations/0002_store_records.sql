-- Idempotency records hold the answer (the record a request returned, as JSON) and no HTTP
-- status: which status a replay carries is the interface's business, not the store's. The
-- answer is NULL while the request that claimed the key has not committed its change.
CREATE TABLE idempotency_records (
    key_id       INTEGER NOT NULL,
    idem_key     TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    answer       TEXT,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (key_id, idem_key)
) WITHOUT ROWID;
INSERT INTO idempotency_records (key_id, idem_key, request_hash, answer, created_at)
    SELECT key_id, idem_key, request_hash, body, created_at FROM idempotency;
DROP TABLE idempotency;
CREATE INDEX idempotency_records_by_age ON idempotency_records(created_at);
