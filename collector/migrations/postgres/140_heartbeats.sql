-- Heartbeat monitors: a third kind on the monitor layer, whose state comes from inbound pings and
-- missed deadlines instead of a probe. The monitors row carries what every kind shares (name, tags,
-- enabled, state, incidents, plan count); this table carries the schedule and the ping token.
ALTER TABLE monitoring.monitors DROP CONSTRAINT monitors_kind_check;
ALTER TABLE monitoring.monitors ADD CONSTRAINT monitors_kind_check CHECK (kind IN ('domain', 'service', 'heartbeat'));
ALTER TABLE monitoring.status_page_components DROP CONSTRAINT status_page_components_kind_check;
ALTER TABLE monitoring.status_page_components ADD CONSTRAINT status_page_components_kind_check
  CHECK (kind IN ('domain', 'service', 'heartbeat', 'device'));

CREATE TABLE monitoring.heartbeats (
  monitor_id text PRIMARY KEY REFERENCES monitoring.monitors (id) ON DELETE CASCADE,
  -- The token is looked up by its SHA-256 (an index walk never compares the secret itself), and kept
  -- sealed so the ping URL can be shown again on read.
  token_hash text NOT NULL UNIQUE,
  token_sealed text NOT NULL,
  every_seconds integer CHECK (every_seconds > 0),
  cron text,
  timezone text NOT NULL DEFAULT 'UTC',
  grace_seconds integer NOT NULL CHECK (grace_seconds >= 0),
  max_duration_seconds integer CHECK (max_duration_seconds > 0),
  CHECK ((every_seconds IS NULL) <> (cron IS NULL)),
  -- When the next ping is expected; the deadline job declares it missed at next_due_at + grace.
  next_due_at timestamptz NOT NULL,
  last_ping_at timestamptz,
  last_ping_type text,
  -- Runs started and not ended yet, by run id ('' without one): {rid: started-at ms}.
  open_runs jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The newest time given to a result of this heartbeat: results derived later get a later time,
  -- so the state machine (which ignores results not newer than the last) never drops one.
  last_result_at timestamptz
);
CREATE INDEX heartbeats_due_idx ON monitoring.heartbeats (next_due_at);
