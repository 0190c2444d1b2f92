-- Content types as site owners edited them through the web: one row per edited type, holding
-- the whole type as last saved (JSON). The revision counts every edit, so each instance sharing
-- the database notices another's edit by one cheap read and rebuilds its registry.
CREATE TABLE content_type_edit (
    id         TEXT PRIMARY KEY,
    definition TEXT NOT NULL
);

CREATE TABLE content_type_revision (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    revision  BIGINT NOT NULL
);
