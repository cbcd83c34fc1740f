-- OAuth 2.0 / OpenID Connect state. Secrets (client secrets, codes, refresh tokens, session ids)
-- are stored as SHA-256 hashes only; signing keys keep their private part encrypted.

CREATE TABLE identity.clients (
  id text PRIMARY KEY,
  name text NOT NULL,
  secret_hash text,
  redirect_uris text[] NOT NULL,
  require_pkce boolean NOT NULL DEFAULT true,
  allowed_scopes text[] NOT NULL,
  first_party boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE identity.signing_keys (
  kid text PRIMARY KEY,
  status text NOT NULL CHECK (status IN ('current', 'previous', 'retired')),
  public_jwk jsonb NOT NULL,
  private_key_encrypted text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX signing_keys_one_current_idx ON identity.signing_keys (status) WHERE status = 'current';

CREATE TABLE identity.sessions (
  id_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES identity.users (id) ON DELETE CASCADE,
  auth_time timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE TABLE identity.consents (
  user_id text NOT NULL REFERENCES identity.users (id) ON DELETE CASCADE,
  client_id text NOT NULL REFERENCES identity.clients (id) ON DELETE CASCADE,
  scopes text[] NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, client_id)
);

-- A grant is one token family: everything issued from one authorization code.
CREATE TABLE identity.grants (
  id text PRIMARY KEY,
  client_id text NOT NULL REFERENCES identity.clients (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES identity.users (id) ON DELETE CASCADE,
  scopes text[] NOT NULL,
  auth_time timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE identity.authorization_codes (
  code_hash text PRIMARY KEY,
  grant_id text NOT NULL,
  client_id text NOT NULL REFERENCES identity.clients (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES identity.users (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  scopes text[] NOT NULL,
  code_challenge text,
  nonce text,
  auth_time timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE identity.refresh_tokens (
  token_hash text PRIMARY KEY,
  grant_id text NOT NULL REFERENCES identity.grants (id) ON DELETE CASCADE,
  scopes text[] NOT NULL,
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz
);
CREATE INDEX refresh_tokens_grant_idx ON identity.refresh_tokens (grant_id);

-- Access tokens are self-contained JWTs; this row lets userinfo and revocation end one early.
CREATE TABLE identity.access_tokens (
  jti text PRIMARY KEY,
  grant_id text NOT NULL REFERENCES identity.grants (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX access_tokens_grant_idx ON identity.access_tokens (grant_id);
