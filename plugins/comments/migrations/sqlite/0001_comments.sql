-- Comments (plone.app.discussion's conversation of an object), kept outside the content tree:
-- they are not content, never listed, searched or navigated to. `id` is unique per object,
-- as Plone's comment ids are (microseconds since 1970 when the comment was made).
CREATE TABLE comment (
    content_uid       TEXT NOT NULL,
    id                BIGINT NOT NULL,
    in_reply_to       BIGINT,
    author_username   TEXT,
    author_name       TEXT,
    author_email      TEXT,
    text              TEXT NOT NULL,
    mime_type         TEXT NOT NULL,
    created           TEXT NOT NULL,
    modified          TEXT NOT NULL,
    PRIMARY KEY (content_uid, id)
);
