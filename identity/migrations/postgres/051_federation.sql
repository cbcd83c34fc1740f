-- Upstream OpenID Connect providers people sign in through: one organization's (its owners
-- configure it) or, without organization, the whole installation's. The client secret is sealed
-- with GUARD_SECRET_KEY (AES-256-GCM), never stored in clear.
CREATE TABLE identity.federation_providers (
  id text PRIMARY KEY,
  organization_id text REFERENCES identity.organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  issuer text NOT NULL,
  client_id text NOT NULL,
  client_secret_encrypted text NOT NULL,
  scopes text[] NOT NULL,
  allowed_domains text[] NOT NULL DEFAULT '{}',
  role_claim text,
  role_map jsonb NOT NULL DEFAULT '{}',
  default_role text NOT NULL DEFAULT 'member',
  jit_provisioning boolean NOT NULL DEFAULT false,
  link_by_email boolean NOT NULL DEFAULT false,
  required boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX federation_providers_organization_idx ON identity.federation_providers (organization_id);

-- An external subject (issuer + sub) is one Guard user, for good: the e-mail an upstream reports
-- may change or be reassigned, the pair may not.
CREATE TABLE identity.federated_identities (
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id text NOT NULL REFERENCES identity.users (id) ON DELETE CASCADE,
  provider_id text REFERENCES identity.federation_providers (id) ON DELETE SET NULL,
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX federated_identities_user_idx ON identity.federated_identities (user_id);

-- How the browser signed in (RFC 8176 values, `fed` for an upstream provider), carried from the
-- session through the code and grant to the ID token's `amr`.
ALTER TABLE identity.sessions ADD COLUMN IF NOT EXISTS amr text[] NOT NULL DEFAULT '{pwd}';
ALTER TABLE identity.authorization_codes ADD COLUMN IF NOT EXISTS amr text[] NOT NULL DEFAULT '{pwd}';
ALTER TABLE identity.grants ADD COLUMN IF NOT EXISTS amr text[] NOT NULL DEFAULT '{pwd}';
