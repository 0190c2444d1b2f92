-- Content rules (plone.app.contentrules): a rule reacts to a trigger with actions when its
-- conditions hold. Conditions and actions are JSON arrays of {"type": <add view>, ...values},
-- in order. Rules are assigned to objects (a folder, the site root) and apply there, and
-- below when the assignment bubbles. `revision` counts the rule's changes, so two editors'
-- changes never overwrite each other unseen.
CREATE TABLE content_rule (
    id          TEXT PRIMARY KEY,
    position    BIGINT NOT NULL,
    title       TEXT NOT NULL,
    description TEXT NOT NULL,
    event       TEXT NOT NULL,
    enabled     BIGINT NOT NULL,
    stop        BIGINT NOT NULL,
    cascading   BIGINT NOT NULL,
    conditions  TEXT NOT NULL,
    actions     TEXT NOT NULL,
    revision    BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE content_rule_assignment (
    content_uid TEXT NOT NULL,
    rule_id     TEXT NOT NULL,
    position    BIGINT NOT NULL,
    enabled     BIGINT NOT NULL,
    bubbles     BIGINT NOT NULL,
    PRIMARY KEY (content_uid, rule_id)
);
CREATE INDEX content_rule_assignment_rule ON content_rule_assignment (rule_id);

-- The rules to try for an event (a JSON list of ids, in order), queued in the transaction of
-- the write that told the event, so a crash after the commit loses none; a worker claims it
-- for a while (instances sharing the database never run one twice), runs it and deletes it,
-- or keeps it with its error. The object's type and workflow state are kept as they were at
-- the event, so conditions judge the event, not what happened after it.
CREATE TABLE content_rule_job (
    id            BIGSERIAL PRIMARY KEY,
    rule_ids      TEXT NOT NULL,
    trigger       TEXT NOT NULL,
    content_uid   TEXT NOT NULL,
    content_path  TEXT NOT NULL,
    content_type  TEXT,
    content_state TEXT,
    actor         TEXT NOT NULL,
    depth         BIGINT NOT NULL,
    created       TEXT NOT NULL,
    claimed_until TEXT,
    failed        TEXT,
    last_error    TEXT
);
CREATE INDEX content_rule_job_due ON content_rule_job (failed, id);

-- The webhook outbox: deliveries retried with growing pauses, given up after a bound and
-- kept with their last error for Managers to see.
CREATE TABLE content_rule_webhook (
    id            BIGSERIAL PRIMARY KEY,
    rule_id       TEXT NOT NULL,
    url           TEXT NOT NULL,
    secret        TEXT NOT NULL,
    body          TEXT NOT NULL,
    created       TEXT NOT NULL,
    next_try      TEXT NOT NULL,
    claimed_until TEXT,
    attempts      BIGINT NOT NULL DEFAULT 0,
    sent          TEXT,
    failed        TEXT,
    last_error    TEXT
);
CREATE INDEX content_rule_webhook_due ON content_rule_webhook (sent, failed, next_try);
