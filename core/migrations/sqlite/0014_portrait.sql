-- Users' portraits, as Volto's personal-information form uploads them and @portrait serves
-- them. One per user; sha256 is the ETag, so clients revalidate rather than refetch.
CREATE TABLE portrait (
    user_id      TEXT PRIMARY KEY,
    content_type TEXT NOT NULL,
    filename     TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    data         BLOB NOT NULL
);
