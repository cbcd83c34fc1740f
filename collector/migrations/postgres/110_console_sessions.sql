-- The web console's sign-in (backend-for-frontend): the confidential client the collector
-- registered with identity, and the browser sessions whose tokens never leave the server.
CREATE TABLE monitoring.console_client (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  client_id text NOT NULL,
  -- Sealed with a key derived from GUARD_SECRET_KEY.
  client_secret_sealed text NOT NULL,
  redirect_uris text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE monitoring.console_sessions (
  -- SHA-256 of the cookie's random value: a stolen database row cannot be replayed as a cookie.
  id_hash text PRIMARY KEY,
  user_id text NOT NULL,
  -- access, refresh and ID tokens, sealed together.
  tokens_sealed text NOT NULL,
  access_expires_at timestamptz NOT NULL,
  -- Bumped on every refresh, so two replicas refreshing at once cannot both win.
  version integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX console_sessions_expiry_idx ON monitoring.console_sessions (expires_at);
CREATE INDEX console_sessions_user_idx ON monitoring.console_sessions (user_id);
