-- The audit log: who changed roles, group memberships, passwords, accounts and sharing, what,
-- when and from which address; written in the same transaction as the change, read by
-- Managers through @audit-log.
CREATE TABLE audit_log (
    id      BIGSERIAL PRIMARY KEY,
    at      TEXT NOT NULL,
    actor   TEXT NOT NULL,
    action  TEXT NOT NULL,
    target  TEXT NOT NULL,
    details TEXT NOT NULL DEFAULT '{}',
    client  TEXT
);
CREATE INDEX audit_log_actor ON audit_log (actor, id);
CREATE INDEX audit_log_target ON audit_log (target, id);
