-- Tokens carry the generation of their user; logging out, a new password or a new account
-- under the same id gives a new one, and older tokens stop working.
ALTER TABLE principal ADD COLUMN token_generation TEXT NOT NULL DEFAULT '';
