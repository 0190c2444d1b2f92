-- EasyForm submissions (the field values as JSON) and the mail outbox the mail action fills.
CREATE TABLE easyform_submission (
    id       BIGSERIAL PRIMARY KEY,
    form_uid TEXT NOT NULL,
    created  TEXT NOT NULL,
    data     TEXT NOT NULL
);
CREATE INDEX easyform_submission_form ON easyform_submission (form_uid, id);

CREATE TABLE easyform_outbox (
    id         BIGSERIAL PRIMARY KEY,
    form_uid   TEXT NOT NULL,
    created    TEXT NOT NULL,
    recipients TEXT NOT NULL,
    reply_to   TEXT,
    subject    TEXT NOT NULL,
    body       TEXT NOT NULL,
    sent       TEXT
);
