-- Per-domain tuning of the monitor state machine (see README "Monitor state").
ALTER TABLE monitoring.domains ADD COLUMN failure_threshold integer NOT NULL DEFAULT 2;
ALTER TABLE monitoring.domains ADD COLUMN quorum_percent integer NOT NULL DEFAULT 50;
ALTER TABLE monitoring.domains ADD COLUMN tags text[] NOT NULL DEFAULT ARRAY[]::text[];
CREATE INDEX domains_search_idx ON monitoring.domains (organization_id, name);

CREATE TABLE monitoring.services (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  protocol text NOT NULL,
  host text NOT NULL,
  port integer,
  path text,
  check_interval integer NOT NULL,
  timeout_seconds integer NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  locations text[] NOT NULL DEFAULT ARRAY['*'],
  failure_threshold integer NOT NULL DEFAULT 2,
  quorum_percent integer NOT NULL DEFAULT 50,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX services_organization_idx ON monitoring.services (organization_id, created_at);

-- One row per monitor (domain or service) and location: the input of the quorum.
CREATE TABLE monitoring.monitor_location_state (
  monitor_id text NOT NULL,
  location text NOT NULL,
  status text NOT NULL,
  consecutive_failures integer NOT NULL,
  last_result_at timestamptz NOT NULL,
  PRIMARY KEY (monitor_id, location)
);

-- The outcome of the quorum, read by every list and detail view.
CREATE TABLE monitoring.monitor_state (
  monitor_id text PRIMARY KEY,
  organization_id text NOT NULL,
  status text NOT NULL,
  changed_at timestamptz NOT NULL,
  last_check_at timestamptz NOT NULL,
  consecutive_failures integer NOT NULL,
  certificate jsonb
);

-- Opened when a monitor goes down, resolved when it comes back: the source of downtime figures.
CREATE TABLE monitoring.monitor_incidents (
  id text PRIMARY KEY,
  monitor_id text NOT NULL,
  organization_id text NOT NULL,
  started_at timestamptz NOT NULL,
  resolved_at timestamptz
);
CREATE INDEX monitor_incidents_monitor_idx ON monitoring.monitor_incidents (monitor_id, started_at);

ALTER TABLE monitoring.api_keys ADD COLUMN created_by text;

-- Fixed one-hour windows per principal and class; every replica counts in the same rows.
CREATE TABLE monitoring.rate_limits (
  principal text NOT NULL,
  class text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (principal, class, window_start)
);
