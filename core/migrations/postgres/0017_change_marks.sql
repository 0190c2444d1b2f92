-- Commits leave marks instead of notifications (see core/src/store/follow.rs). PostgreSQL commits
-- every transaction that called pg_notify under one lock for the whole database, held until the
-- commit is on disk, so concurrent writers could not share a flush of the write-ahead log. A
-- mark is one row per writing transaction, keyed by its number: no lock that others wait for.
-- Other instances read the marks from the oldest transaction still running on, a few times a
-- second, and trim those every instance has read.
CREATE TABLE change_mark (
    xid      BIGINT PRIMARY KEY,
    instance TEXT NOT NULL
);

-- The same triggers call it (migration 0016). The search path is the one this migration ran
-- with, so a mark lands in this site's schema whoever writes.
CREATE OR REPLACE FUNCTION wcs_notify_change() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO change_mark (xid, instance)
        VALUES (pg_current_xact_id()::text::bigint, COALESCE(current_setting('wcs.instance', true), ''))
        ON CONFLICT (xid) DO NOTHING;
    RETURN NULL;
END
$$;

-- The change feed no longer hands out numbers from this row, which every write would have
-- kept locked until its commit was on disk: an entry's number is this row's value (frozen
-- from now on) plus its transaction's number shifted left by 24 bits plus its place in the
-- transaction (see core/src/store/feed.rs). Numbers then follow transaction numbers, not
-- commits; readers read only below the oldest transaction still running, so an entry never
-- appears below what a consumer has read.
COMMENT ON TABLE change_feed_counter IS 'last_seq: the base of the change feed numbers (frozen since migration 0017)';

-- The newest change feed number trimming deleted: numbers have gaps on PostgreSQL, so a consumer
-- cannot tell from the numbers alone whether entries after its position were deleted before it
-- read them. Entries may have been trimmed before this column existed: all below the oldest
-- kept entry count as trimmed.
ALTER TABLE change_feed_counter ADD COLUMN trimmed BIGINT NOT NULL DEFAULT 0;
UPDATE change_feed_counter SET trimmed = COALESCE((SELECT MIN(seq) FROM change_feed), last_seq + 1) - 1;
