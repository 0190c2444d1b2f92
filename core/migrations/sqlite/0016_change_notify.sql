-- On PostgreSQL this migration announces every commit to the other instances sharing the
-- database (see the PostgreSQL migration of the same number). A SQLite file belongs to one
-- server, so there is nothing to announce; the migration exists so that both engines have the
-- same migrations and a site's export moves between them.
SELECT 1;
