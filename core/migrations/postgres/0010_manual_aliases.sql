-- Aliases editors add by hand (URL management) are told apart from those moves record.
ALTER TABLE redirect ADD COLUMN manual INTEGER NOT NULL DEFAULT 0;
