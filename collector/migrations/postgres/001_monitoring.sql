CREATE SCHEMA IF NOT EXISTS monitoring;

CREATE TABLE monitoring.domains (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  url text NOT NULL,
  name text NOT NULL,
  check_interval integer NOT NULL,
  timeout_seconds integer NOT NULL,
  is_api boolean NOT NULL DEFAULT false,
  auth_type text NOT NULL DEFAULT 'none',
  enabled boolean NOT NULL DEFAULT true,
  locations text[] NOT NULL DEFAULT ARRAY['*'],
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX domains_organization_idx ON monitoring.domains (organization_id, created_at);

CREATE TABLE monitoring.api_keys (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  key_prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  permissions text[] NOT NULL DEFAULT ARRAY[]::text[],
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  expires_at timestamptz
);
CREATE INDEX api_keys_organization_idx ON monitoring.api_keys (organization_id);
