-- Dependencies (README "Dependencies"): a monitor that depends on others opens no incident of its own
-- while one of them is down; its failure is recorded as suppressed and linked to the parent's incident.

CREATE TABLE monitoring.monitor_dependencies (
  organization_id text NOT NULL,
  monitor_id text NOT NULL REFERENCES monitoring.monitors (id) ON DELETE CASCADE,
  depends_on_id text NOT NULL REFERENCES monitoring.monitors (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (monitor_id, depends_on_id),
  CHECK (monitor_id <> depends_on_id)
);
-- The engine and the dependents count walk the edges from the parent's side.
CREATE INDEX monitor_dependencies_parent_idx ON monitoring.monitor_dependencies (depends_on_id);

CREATE TABLE monitoring.suppressed_failures (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  monitor_id text NOT NULL REFERENCES monitoring.monitors (id) ON DELETE CASCADE,
  -- The direct parent found down; no foreign key, so the history outlives a deleted parent.
  parent_id text NOT NULL,
  -- The incident the failure is counted under: the parent's own, or the one its parent's failure was
  -- suppressed under (a chain of dependencies points at the root cause).
  parent_incident_id text REFERENCES monitoring.incidents (id) ON DELETE SET NULL,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  reason text NOT NULL
);
CREATE UNIQUE INDEX suppressed_failures_active_idx ON monitoring.suppressed_failures (monitor_id) WHERE ended_at IS NULL;
CREATE INDEX suppressed_failures_incident_idx ON monitoring.suppressed_failures (parent_incident_id, started_at);
