-- Relation index: one row per target of a relation field (RelationChoice / RelationList).
-- The field values in content.fields are the truth; these rows are rewritten from them in the
-- same transaction, so back-relations and @relations are single indexed queries.
CREATE TABLE relation (
    source_uid TEXT NOT NULL,
    field      TEXT NOT NULL,
    position   BIGINT NOT NULL,
    target_uid TEXT NOT NULL,
    PRIMARY KEY (source_uid, field, position)
);
CREATE INDEX relation_target ON relation (target_uid, field);
CREATE INDEX relation_field ON relation (field, source_uid);
