-- On PostgreSQL this migration also makes commits leave marks for the other instances sharing
-- the database and numbers the change feed by transaction (see the PostgreSQL migration of the
-- same number). A SQLite file belongs to one server, whose one writer numbers the feed in commit
-- order, so here it only records what trimming deleted.

-- The newest change feed number trimming deleted: numbers have gaps on PostgreSQL, so a consumer
-- cannot tell from the numbers alone whether entries after its position were deleted before it
-- read them. Entries may have been trimmed before this column existed: all below the oldest
-- kept entry count as trimmed.
ALTER TABLE change_feed_counter ADD COLUMN trimmed BIGINT NOT NULL DEFAULT 0;
UPDATE change_feed_counter SET trimmed = COALESCE((SELECT MIN(seq) FROM change_feed), last_seq + 1) - 1;
