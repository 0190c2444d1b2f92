-- Translation groups (plone.app.multilingual's TG): the objects that are one another's
-- translations share `tg`, one per language. An object in no group has no row.
CREATE TABLE translation (
    content_uid TEXT PRIMARY KEY,
    tg          TEXT NOT NULL,
    language    TEXT NOT NULL
);
CREATE UNIQUE INDEX translation_tg_language ON translation (tg, language);
