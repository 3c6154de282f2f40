-- Temporary bans, shared by every process serving the store: a ban one process starts is
-- refused by the others at their next look (every second), and lifting it lifts it for all.
CREATE TABLE bans (
    subject TEXT PRIMARY KEY,
    until   BIGINT NOT NULL
);
