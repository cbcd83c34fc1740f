-- Administration of a running identity: disabled users, admin API tokens, the audit log, and
-- where clients may send a user after sign-out (RP-initiated logout).

ALTER TABLE identity.users ADD COLUMN disabled_at timestamptz;

ALTER TABLE identity.clients ADD COLUMN post_logout_redirect_uris text[] NOT NULL DEFAULT '{}';

-- Bearer tokens for the admin API (the CLI's credential); only their SHA-256 is kept.
CREATE TABLE identity.admin_tokens (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);

-- Who did what, when, from where. Rows are only ever inserted.
CREATE TABLE identity.audit_log (
  id text PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_type text NOT NULL,
  actor_id text,
  actor text NOT NULL,
  action text NOT NULL,
  target_type text,
  target_id text,
  details jsonb NOT NULL DEFAULT '{}',
  ip text,
  user_agent text
);
CREATE INDEX audit_log_at_idx ON identity.audit_log (at DESC, id DESC);
