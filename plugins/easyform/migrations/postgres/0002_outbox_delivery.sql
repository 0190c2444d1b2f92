-- Delivery state of queued mail: a sender claims a message for a while (so instances sharing
-- a database do not send it twice), counts attempts and gives up after a few.
ALTER TABLE easyform_outbox ADD COLUMN claimed_until TEXT;
ALTER TABLE easyform_outbox ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE easyform_outbox ADD COLUMN failed TEXT;
ALTER TABLE easyform_outbox ADD COLUMN last_error TEXT;
