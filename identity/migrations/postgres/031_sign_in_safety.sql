-- Sessions a user can list and end: a public id (the cookie holds the secret one), where from.
ALTER TABLE identity.sessions ADD COLUMN id text NOT NULL DEFAULT gen_random_uuid()::text;
ALTER TABLE identity.sessions ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE identity.sessions ADD COLUMN ip text;
ALTER TABLE identity.sessions ADD COLUMN user_agent text;
CREATE UNIQUE INDEX sessions_id_idx ON identity.sessions (id);
CREATE INDEX sessions_user_idx ON identity.sessions (user_id);

-- Failed sign-ins per account (the email typed, existing or not) and per client IP, shared by
-- every identity replica. A row is removed by a successful sign-in of that account.
CREATE TABLE identity.sign_in_throttle (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  last_failure_at timestamptz NOT NULL,
  locked_until timestamptz
);
