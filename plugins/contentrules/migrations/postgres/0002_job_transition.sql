-- The workflow transition an event of "Workflow state changed" took, for the workflow
-- transition condition.
ALTER TABLE content_rule_job ADD COLUMN content_transition TEXT;
