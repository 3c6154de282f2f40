-- Staff members who sign in by name and PIN, their sessions, and who made each stock change
-- and event.

CREATE TABLE staff_members (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL,
    name_fold   TEXT NOT NULL UNIQUE,
    role        TEXT NOT NULL CHECK (role IN ('readonly', 'staff', 'admin')),
    -- Argon2id in PHC string form (salt and parameters included); never the PIN.
    pin_hash    TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    disabled_at TEXT
);

-- A signed-in member: a key held only as the SHA-256 of its secret, ended by signing out,
-- by disabling the member, or by 12 hours without use.
CREATE TABLE staff_sessions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    staff_id    INTEGER NOT NULL REFERENCES staff_members(id),
    secret_hash TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    -- Unix seconds of the last use, saved from time to time.
    last_used   INTEGER NOT NULL,
    ended_at    TEXT
);
CREATE INDEX staff_sessions_open ON staff_sessions(staff_id) WHERE ended_at IS NULL;

ALTER TABLE stock_changes ADD COLUMN staff_id INTEGER;
ALTER TABLE events ADD COLUMN key_name TEXT;
ALTER TABLE events ADD COLUMN staff_id INTEGER;
