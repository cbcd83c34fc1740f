-- Whom a key belongs to. A user's key acts with at most its creator's current rights and stops
-- when they leave the organization; an organization's key (created by an owner, for automation
-- that must outlive a person) keeps its own permissions. Keys created without a user (the
-- bootstrap key) were always the organization's.
ALTER TABLE monitoring.api_keys ADD COLUMN belongs_to text NOT NULL DEFAULT 'organization'
  CHECK (belongs_to IN ('user', 'organization'));
UPDATE monitoring.api_keys SET belongs_to = 'user' WHERE created_by IS NOT NULL;
ALTER TABLE monitoring.api_keys ALTER COLUMN belongs_to DROP DEFAULT;
ALTER TABLE monitoring.api_keys
  ADD CONSTRAINT api_keys_user_key_has_creator CHECK (belongs_to = 'organization' OR created_by IS NOT NULL);
