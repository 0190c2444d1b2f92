-- Versioning: up to ten snapshots per object (the spec's cms_versions_container). A version
-- lives outside the content tree, so it never shows in navigation, search, listings or
-- relations and cannot be moved or copied. (Sites made before the tables moved into this
-- plugin have them from core's old migration, hence IF NOT EXISTS.)
CREATE TABLE IF NOT EXISTS version (
    object_uid       TEXT NOT NULL,
    seq              BIGINT NOT NULL,
    created          TEXT NOT NULL,
    creator          TEXT NOT NULL,
    creator_fullname TEXT NOT NULL,
    comment          TEXT NOT NULL,
    title            TEXT NOT NULL,
    snapshot         TEXT NOT NULL,
    PRIMARY KEY (object_uid, seq)
);

-- The last version number handed out per object. Numbers are never reused, so a version's
-- id stays stable; the row also serialises concurrent creates for one object.
CREATE TABLE IF NOT EXISTS version_counter (
    object_uid TEXT PRIMARY KEY,
    last_seq   BIGINT NOT NULL
);

-- The files of the objects a version froze: metadata per version, bytes shared by hash.
CREATE TABLE IF NOT EXISTS version_blob (
    object_uid   TEXT NOT NULL,
    seq          BIGINT NOT NULL,
    content_uid  TEXT NOT NULL,
    field        TEXT NOT NULL,
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size         BIGINT NOT NULL,
    sha256       TEXT NOT NULL,
    PRIMARY KEY (object_uid, seq, content_uid, field)
);
CREATE INDEX IF NOT EXISTS version_blob_sha256 ON version_blob (sha256);

CREATE TABLE IF NOT EXISTS version_blob_data (
    sha256 TEXT PRIMARY KEY,
    data   BYTEA NOT NULL
);
