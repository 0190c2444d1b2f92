-- The change feed: one row per change to content, written in the same transaction as the
-- change. Consumers (the search indexer) read it by sequence number and keep their position
-- in change_feed_position, so they catch up after a restart.
CREATE TABLE change_feed (
    seq  BIGINT PRIMARY KEY,
    uid  TEXT NOT NULL,
    kind TEXT NOT NULL,
    path TEXT,
    time TEXT NOT NULL
);
CREATE INDEX change_feed_time ON change_feed (time);

-- Hands out sequence numbers. Its one row stays locked from a write's first feed entry until
-- that write commits, so numbers are handed out in commit order and a consumer that has read
-- up to n never sees an entry below n appear later.
CREATE TABLE change_feed_counter (
    id       INTEGER PRIMARY KEY,
    last_seq BIGINT NOT NULL
);
INSERT INTO change_feed_counter (id, last_seq) VALUES (1, 0);

CREATE TABLE change_feed_position (
    consumer TEXT PRIMARY KEY,
    seq      BIGINT NOT NULL,
    updated  TEXT NOT NULL
);
