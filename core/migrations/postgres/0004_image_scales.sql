-- Image scales rendered on first request. source_sha256 ties a scale to the original it was
-- made from, so a replaced image never serves stale scales.
CREATE TABLE image_scale (
    content_uid   TEXT NOT NULL,
    field         TEXT NOT NULL,
    scale         TEXT NOT NULL,
    source_sha256 TEXT NOT NULL,
    content_type  TEXT NOT NULL,
    width         BIGINT NOT NULL,
    height        BIGINT NOT NULL,
    data          BYTEA NOT NULL,
    PRIMARY KEY (content_uid, field, scale)
);
