-- Synthetic checks: a fifth kind of monitored subject, on the monitor layer like domains and
-- services (its target is the probe's `flow`, its secrets sealed in `credentials`), so state,
-- uptime, incidents, tags, groups, SLOs and status pages take it without a table of its own.
ALTER TABLE monitoring.monitors DROP CONSTRAINT monitors_kind_check;
ALTER TABLE monitoring.monitors ADD CONSTRAINT monitors_kind_check
  CHECK (kind IN ('domain', 'service', 'heartbeat', 'synthetic'));
ALTER TABLE monitoring.status_page_components DROP CONSTRAINT status_page_components_kind_check;
ALTER TABLE monitoring.status_page_components ADD CONSTRAINT status_page_components_kind_check
  CHECK (kind IN ('domain', 'service', 'heartbeat', 'device', 'synthetic', 'group'));

-- The last runs of each synthetic check with their steps (timings, status, passed), as probes
-- report them in the result's details; the newest few per monitor are kept.
CREATE TABLE monitoring.synthetic_runs (
  result_id text PRIMARY KEY,
  monitor_id text NOT NULL REFERENCES monitoring.monitors (id) ON DELETE CASCADE,
  organization_id text NOT NULL,
  location text NOT NULL,
  started_at timestamptz NOT NULL,
  status text NOT NULL,
  response_time_ms double precision NOT NULL,
  error text,
  error_kind text,
  steps jsonb NOT NULL
);
CREATE INDEX synthetic_runs_monitor_idx ON monitoring.synthetic_runs (monitor_id, started_at DESC);
