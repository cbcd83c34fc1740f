-- Linked accounts of external platforms (cloud-a, selfhost-b, webhost-c). Secrets and cached
-- access tokens are AES-256-GCM sealed (README "Integrations"); config holds only public facts.
CREATE TABLE monitoring.integration_accounts (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  provider text NOT NULL,
  name text NOT NULL,
  -- What identifies the linked account at the provider (tenant/client/subscription, URL, user),
  -- so the same account is not linked twice into one organization.
  external_key text NOT NULL,
  config jsonb NOT NULL,
  sealed_secrets text NOT NULL,
  secret_hint text NOT NULL,
  sealed_access_token text,
  access_token_expires_at timestamptz,
  -- Bumped on every token change, so two replicas refreshing at once keep one rotated token.
  token_version integer NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, provider, external_key)
);
CREATE INDEX integration_accounts_list_idx ON monitoring.integration_accounts (organization_id, provider, created_at);

-- Which monitor was created from which provider item; monitors outlive the account.
CREATE TABLE monitoring.integration_monitors (
  account_id text NOT NULL REFERENCES monitoring.integration_accounts (id) ON DELETE CASCADE,
  item_id text NOT NULL,
  monitor_type text NOT NULL,
  monitor_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, item_id)
);

-- Pending OAuth authorizations (webhost-c): the state is kept as SHA-256 and used once.
CREATE TABLE monitoring.integration_authorizations (
  state_hash text PRIMARY KEY,
  organization_id text NOT NULL,
  provider text NOT NULL,
  principal text NOT NULL,
  sealed_code_verifier text NOT NULL,
  redirect_uri text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX integration_authorizations_expiry_idx ON monitoring.integration_authorizations (expires_at);
