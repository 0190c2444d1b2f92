-- Instances sharing the database keep what they read in memory and forget it when another
-- instance commits a change to it. Every statement that changes a table something is kept from
-- queues one notification on the channel `wcs_change`; PostgreSQL delivers it when the
-- transaction commits (never for one rolled back) and sends one per transaction, however many
-- statements queued it. The payload names the schema (instances of other sites may share the
-- database in other schemas) and the writing instance (`wcs.instance`, set on each of its
-- connections), so an instance skips what its own commits already told it; a write by anything
-- else (a `wcs` command, an administrator's SQL) carries an empty instance and counts as
-- another's.
CREATE FUNCTION wcs_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('wcs_change', current_schema() || ' ' || COALESCE(current_setting('wcs.instance', true), ''));
    RETURN NULL;
END
$$;

CREATE TRIGGER content_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON content
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
CREATE TRIGGER change_feed_notify AFTER INSERT ON change_feed
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
CREATE TRIGGER record_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON record
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
CREATE TRIGGER local_role_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON local_role
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
CREATE TRIGGER allowed_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON allowed
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
CREATE TRIGGER content_lock_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON content_lock
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
CREATE TRIGGER principal_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON principal
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
CREATE TRIGGER membership_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON membership
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
CREATE TRIGGER relation_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON relation
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
CREATE TRIGGER redirect_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON redirect
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
CREATE TRIGGER content_type_revision_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON content_type_revision
    FOR EACH STATEMENT EXECUTE FUNCTION wcs_notify_change();
