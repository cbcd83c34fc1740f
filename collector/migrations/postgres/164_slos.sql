-- Service level objectives (README "SLOs and error budgets"): an objective over a monitor or a
-- group, in a rolling window of days or the calendar month. The subject is one of two foreign keys
-- so that deleting the monitor or the group deletes its SLOs.
CREATE TABLE monitoring.slos (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  monitor_id text REFERENCES monitoring.monitors (id) ON DELETE CASCADE,
  group_id text REFERENCES monitoring.monitor_groups (id) ON DELETE CASCADE,
  objective double precision NOT NULL CHECK (objective > 0 AND objective < 100),
  window_type text NOT NULL CHECK (window_type IN ('rolling', 'calendar-month')),
  window_days integer CHECK (window_days BETWEEN 1 AND 31),
  -- [{ budgetPercent, longWindowMinutes, shortWindowMinutes, severity }]: multi-window burn alerts.
  burn_alerts jsonb NOT NULL,
  -- The burn alert firing since the job last looked ({ alert, since, burnRate }); NULL: none.
  burning jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, name),
  CHECK ((monitor_id IS NULL) <> (group_id IS NULL)),
  CHECK ((window_type = 'rolling') = (window_days IS NOT NULL))
);
CREATE INDEX slos_monitor_idx ON monitoring.slos (monitor_id) WHERE monitor_id IS NOT NULL;
CREATE INDEX slos_group_idx ON monitoring.slos (group_id) WHERE group_id IS NOT NULL;
