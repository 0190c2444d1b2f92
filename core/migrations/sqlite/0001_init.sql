-- Content tree, blobs, redirects and principals. Times are UTC RFC 3339 text with
-- microseconds, so text order is time order. Flags are 0/1 integers (portable through sqlx::Any).
CREATE TABLE content (
    uid          TEXT PRIMARY KEY,
    parent_uid   TEXT,
    path         TEXT NOT NULL UNIQUE,
    id           TEXT NOT NULL,
    portal_type  TEXT NOT NULL,
    position     BIGINT NOT NULL DEFAULT 0,
    title        TEXT NOT NULL DEFAULT '',
    description  TEXT NOT NULL DEFAULT '',
    review_state TEXT,
    created      TEXT NOT NULL,
    modified     TEXT NOT NULL,
    effective    TEXT,
    expires      TEXT,
    creator      TEXT NOT NULL,
    trashed      BIGINT NOT NULL DEFAULT 0,
    trashed_at   TEXT,
    fields       TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX content_children ON content (parent_uid, position);

CREATE TABLE blob (
    content_uid  TEXT NOT NULL,
    field        TEXT NOT NULL,
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size         BIGINT NOT NULL,
    sha256       TEXT NOT NULL,
    data         BLOB NOT NULL,
    PRIMARY KEY (content_uid, field)
);

CREATE TABLE redirect (
    old_path   TEXT PRIMARY KEY,
    target_uid TEXT NOT NULL,
    created    TEXT NOT NULL
);
CREATE INDEX redirect_target ON redirect (target_uid);

CREATE TABLE principal (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL,
    login         TEXT UNIQUE,
    password_hash TEXT,
    fullname      TEXT NOT NULL DEFAULT '',
    email         TEXT NOT NULL DEFAULT '',
    roles         TEXT NOT NULL DEFAULT '[]'
);
