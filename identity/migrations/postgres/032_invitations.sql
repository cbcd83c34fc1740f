-- An owner or admin invites an email address into an organization; the link's token is single
-- use, expires, and only its SHA-256 is kept.
CREATE TABLE identity.invitations (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES identity.organizations (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  invited_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by text REFERENCES identity.users (id) ON DELETE SET NULL,
  revoked_at timestamptz
);
CREATE INDEX invitations_organization_idx ON identity.invitations (organization_id, created_at DESC);
