-- Messages a consumer could never store (results, device heartbeats, events), copied from the
-- DEADLETTERS stream so operators can list, replay or drop them. The id is the dead letter's own
-- (one message at one consumer), so a dead letter delivered twice is kept once.
CREATE TABLE IF NOT EXISTS monitoring.dead_letters (
  id text PRIMARY KEY,
  source text NOT NULL,
  subject text NOT NULL,
  msg_id text,
  consumer text NOT NULL,
  reason text NOT NULL,
  error text NOT NULL,
  organization_id text,
  delivery_count integer NOT NULL,
  data bytea NOT NULL,
  dead_lettered_at timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS dead_letters_by_time ON monitoring.dead_letters (dead_lettered_at DESC, id);
