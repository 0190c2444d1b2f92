-- Mail moved to the server's own outbox (shared with contact messages and password resets):
-- queued and failed form mails move over with their delivery state.
INSERT INTO mail_outbox (source, created, recipients, reply_to, subject, body, sent, claimed_until, attempts, failed, last_error)
SELECT 'easyform:' || form_uid, created, recipients, reply_to, subject, body, sent, claimed_until, attempts, failed, last_error
FROM easyform_outbox ORDER BY id;
DROP TABLE easyform_outbox;
