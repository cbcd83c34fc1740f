-- Devices report through the agent. The token is stored as its SHA-256 (256 random bits, nothing
-- to brute-force); `state_version` counts state changes and names their events, so a change is
-- published under one id however often the publish is retried.
CREATE TABLE monitoring.devices (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  tags text[] NOT NULL DEFAULT ARRAY[]::text[],
  token_hash text NOT NULL UNIQUE,
  token_prefix text NOT NULL,
  cpu_warning real NOT NULL DEFAULT 80,
  cpu_critical real NOT NULL DEFAULT 90,
  memory_warning real NOT NULL DEFAULT 80,
  memory_critical real NOT NULL DEFAULT 90,
  disk_warning real NOT NULL DEFAULT 80,
  disk_critical real NOT NULL DEFAULT 90,
  is_online boolean NOT NULL DEFAULT false,
  -- When the collector last received a heartbeat (its own clock: agents' clocks may drift).
  last_seen timestamptz,
  -- Time of the newest heartbeat applied to the state, so a late replay never moves it back.
  last_heartbeat_at timestamptz,
  interval_seconds integer NOT NULL DEFAULT 30,
  health_status text NOT NULL DEFAULT 'healthy',
  -- A level seen but not yet sustained: it becomes health_status on its second heartbeat in a row.
  health_candidate text,
  health_candidate_count integer NOT NULL DEFAULT 0,
  state_version integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX devices_organization_idx ON monitoring.devices (organization_id, created_at);
CREATE INDEX devices_online_idx ON monitoring.devices (last_seen) WHERE is_online;

-- The device's last reported inventories, replaced whole by each heartbeat that carries them.
CREATE TABLE monitoring.device_snapshots (
  device_id text PRIMARY KEY REFERENCES monitoring.devices (id) ON DELETE CASCADE,
  system jsonb,
  system_at timestamptz,
  processes jsonb,
  processes_at timestamptz,
  applications jsonb,
  applications_at timestamptz,
  connections jsonb,
  connections_at timestamptz,
  network jsonb,
  network_at timestamptz
);

-- State-change events written in the transaction that changed the state and deleted once the bus
-- has stored them: a crash between the two republishes the same event id, never loses it.
CREATE TABLE monitoring.device_event_outbox (
  id text PRIMARY KEY,
  subject text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Leases of scheduled jobs: one replica at a time holds a job's lease and runs it.
CREATE TABLE monitoring.job_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);
