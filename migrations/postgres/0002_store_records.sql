-- PostgreSQL twin of ../0002_store_records.sql: idempotency records hold the answer (NULL
-- while the request that claimed the key has not committed its change).
CREATE TABLE idempotency_records (
    key_id       BIGINT NOT NULL,
    idem_key     TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    answer       TEXT,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (key_id, idem_key)
);
CREATE INDEX idempotency_records_by_age ON idempotency_records(created_at);
