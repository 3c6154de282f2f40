-- PostgreSQL twin of ../0015_shared_sign_in_state.sql.
-- Pairing codes and wrong staff PINs, shared by every process serving the store (they lived
-- in one process's memory): a code opened on one process is redeemed on any, and wrong
-- PINs sent to different processes add up to one lock.

-- Codes waiting for their device: only the SHA-256 hash of the code (normalised, as
-- `domain::pairing::normalize` gives it), never the code; the key it will make; when it ends.
CREATE TABLE pairings (
    code_hash  TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    role       TEXT NOT NULL,
    plan       TEXT NOT NULL,
    per_minute BIGINT,
    per_day    BIGINT,
    expires_at BIGINT NOT NULL
);
CREATE INDEX pairings_by_expiry ON pairings(expires_at);

-- Wrong PINs by folded name and second (Unix seconds): every process adds to the count of
-- its second, and the recent ones are summed.
CREATE TABLE sign_in_failures (
    name     TEXT NOT NULL,
    at       BIGINT NOT NULL,
    failures BIGINT NOT NULL,
    PRIMARY KEY (name, at)
);

-- Names locked after too many wrong PINs, until a Unix second.
CREATE TABLE sign_in_locks (
    name  TEXT PRIMARY KEY,
    until BIGINT NOT NULL
);
