-- Editing locks (plone.locking's `@lock`): one per object, held by its creator until it is
-- released or its timeout passes; others' edits are refused meanwhile.
CREATE TABLE content_lock (
    uid TEXT PRIMARY KEY,
    token TEXT NOT NULL,
    creator TEXT NOT NULL,
    created BIGINT NOT NULL,
    timeout BIGINT NOT NULL,
    stealable INTEGER NOT NULL
);
