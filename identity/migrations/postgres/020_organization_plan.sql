-- The catalog plan an organization is on (a plan id of identity.catalog); NULL means no limits.
-- Not a foreign key: the catalog is one JSON document, so the id is checked when it is set.
ALTER TABLE identity.organizations ADD COLUMN plan text;
