CREATE SCHEMA IF NOT EXISTS identity;

CREATE TABLE identity.organizations (
  id text PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE identity.users (
  id text PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  name text NOT NULL DEFAULT '',
  picture text,
  role text NOT NULL DEFAULT 'user',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_idx ON identity.users (lower(email));

CREATE TABLE identity.memberships (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES identity.organizations (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES identity.users (id) ON DELETE CASCADE,
  role text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, user_id)
);
