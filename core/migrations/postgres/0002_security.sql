-- Security model: principal details, group memberships, local roles, the effective "allowed
-- roles and users" tokens that listings filter on, workflow history, server secrets, and
-- trash bookkeeping (trash_root: the uid of the object whose trashing hid this one).
ALTER TABLE principal ADD COLUMN description TEXT NOT NULL DEFAULT '';
ALTER TABLE principal ADD COLUMN location TEXT NOT NULL DEFAULT '';
ALTER TABLE principal ADD COLUMN home_page TEXT NOT NULL DEFAULT '';
CREATE INDEX principal_kind ON principal (kind, id);

CREATE TABLE membership (
    group_id  TEXT NOT NULL,
    member_id TEXT NOT NULL,
    PRIMARY KEY (group_id, member_id)
);
CREATE INDEX membership_member ON membership (member_id);

CREATE TABLE local_role (
    content_uid  TEXT NOT NULL,
    principal_id TEXT NOT NULL,
    role         TEXT NOT NULL,
    PRIMARY KEY (content_uid, principal_id, role)
);

CREATE TABLE allowed (
    content_uid TEXT NOT NULL,
    token       TEXT NOT NULL,
    PRIMARY KEY (content_uid, token)
);
CREATE INDEX allowed_token ON allowed (token, content_uid);

CREATE TABLE workflow_history (
    content_uid  TEXT NOT NULL,
    seq          BIGINT NOT NULL,
    action       TEXT,
    actor        TEXT NOT NULL,
    comment      TEXT NOT NULL DEFAULT '',
    review_state TEXT NOT NULL,
    time         TEXT NOT NULL,
    PRIMARY KEY (content_uid, seq)
);

CREATE TABLE record (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

ALTER TABLE content ADD COLUMN block_local_roles BIGINT NOT NULL DEFAULT 0;
ALTER TABLE content ADD COLUMN trash_root TEXT;
CREATE INDEX content_trash_root ON content (trash_root);
