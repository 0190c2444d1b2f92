-- The example plugin's own table: counters it keeps from content events.
CREATE TABLE hello_stats (
    name  TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
INSERT INTO hello_stats (name, value) VALUES ('objects_added', 0);
