-- Staging: a working copy points at its baseline. At most one working copy per baseline;
-- the unique index makes a second concurrent check-out fail instead of racing.
ALTER TABLE content ADD COLUMN working_copy_of TEXT;
CREATE UNIQUE INDEX content_working_copy_of ON content (working_copy_of);
