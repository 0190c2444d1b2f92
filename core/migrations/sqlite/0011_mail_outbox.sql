-- The mail outbox: messages queued in the same transaction as what caused them (a form
-- submission, a contact message, a password reset) and sent by a background task. A sender
-- claims a message for a while (so instances sharing a database do not send it twice),
-- counts attempts and gives up after a few, keeping the last error.
CREATE TABLE mail_outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    source        TEXT NOT NULL,
    created       TEXT NOT NULL,
    recipients    TEXT NOT NULL,
    reply_to      TEXT,
    subject       TEXT NOT NULL,
    body          TEXT NOT NULL,
    sent          TEXT,
    claimed_until TEXT,
    attempts      INTEGER NOT NULL DEFAULT 0,
    failed        TEXT,
    last_error    TEXT
);
CREATE INDEX mail_outbox_due ON mail_outbox (sent, failed, id);
