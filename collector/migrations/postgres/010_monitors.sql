-- One monitor layer: domains and services are two API shapes over one record. `target` is the
-- probe's check target as the wire contract defines it (shared/src/contracts/monitor.ts), without
-- credentials; those are sealed (AES-256-GCM, key derived from GUARD_SECRET_KEY) in `credentials`.
CREATE TABLE monitoring.monitors (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('domain', 'service')),
  name text NOT NULL,
  protocol text,
  target jsonb NOT NULL,
  is_api boolean NOT NULL DEFAULT false,
  auth_type text NOT NULL DEFAULT 'none',
  credentials text,
  check_interval integer NOT NULL,
  timeout_seconds integer NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  locations text[] NOT NULL DEFAULT ARRAY['*'],
  tags text[] NOT NULL DEFAULT ARRAY[]::text[],
  failure_threshold integer NOT NULL DEFAULT 2,
  quorum_percent integer NOT NULL DEFAULT 50,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX monitors_organization_idx ON monitoring.monitors (organization_id, kind, created_at);
CREATE INDEX monitors_search_idx ON monitoring.monitors (organization_id, name);

INSERT INTO monitoring.monitors
  (id, organization_id, kind, name, target, is_api, auth_type, check_interval, timeout_seconds, enabled,
   locations, tags, failure_threshold, quorum_percent, created_at, updated_at)
SELECT id, organization_id, 'domain', name, jsonb_build_object('kind', 'http', 'url', url, 'method', 'GET'),
       is_api, 'none', check_interval, timeout_seconds, enabled, locations, tags, failure_threshold,
       quorum_percent, created_at, updated_at
  FROM monitoring.domains;

INSERT INTO monitoring.monitors
  (id, organization_id, kind, name, protocol, target, check_interval, timeout_seconds, enabled, locations,
   failure_threshold, quorum_percent, created_at, updated_at)
SELECT id, organization_id, 'service', name, protocol,
       CASE protocol
         WHEN 'http' THEN jsonb_build_object('kind', 'http', 'method', 'GET', 'url',
           'http://' || CASE WHEN host LIKE '%:%' THEN '[' || host || ']' ELSE host END
             || coalesce(':' || port, '') || coalesce(path, '/'))
         WHEN 'https' THEN jsonb_build_object('kind', 'http', 'method', 'GET', 'url',
           'https://' || CASE WHEN host LIKE '%:%' THEN '[' || host || ']' ELSE host END
             || coalesce(':' || port, '') || coalesce(path, '/'))
         WHEN 'tcp' THEN jsonb_build_object('kind', 'tcp', 'host', host, 'port', port)
         WHEN 'dns' THEN jsonb_build_object('kind', 'dns', 'hostname', host, 'recordType', 'A')
         WHEN 'tls' THEN jsonb_strip_nulls(jsonb_build_object('kind', 'tls', 'host', host, 'port', port))
         ELSE jsonb_build_object('kind', 'icmp', 'host', host)
       END,
       check_interval, timeout_seconds, enabled, locations, failure_threshold, quorum_percent, created_at, updated_at
  FROM monitoring.services;

DROP TABLE monitoring.domains;
DROP TABLE monitoring.services;

-- Read-only views with the former tables' columns, for queries written against them.
CREATE VIEW monitoring.domains AS
SELECT id, organization_id, target ->> 'url' AS url, name, check_interval, timeout_seconds, is_api, auth_type,
       enabled, locations, tags, failure_threshold, quorum_percent, created_at, updated_at
  FROM monitoring.monitors WHERE kind = 'domain';

CREATE VIEW monitoring.services AS
SELECT id, organization_id, name, protocol,
       coalesce(target ->> 'host', target ->> 'hostname',
                substring(target ->> 'url' from '^https?://\[?([^/\]]+?)\]?(?::\d+)?(?:/|$)')) AS host,
       coalesce((target ->> 'port')::integer,
                substring(target ->> 'url' from '^https?://(?:\[[^]]+\]|[^/:]+):(\d+)')::integer) AS port,
       substring(target ->> 'url' from '^https?://[^/]+(/.*)$') AS path,
       check_interval, timeout_seconds, enabled, locations, failure_threshold, quorum_percent, created_at, updated_at
  FROM monitoring.monitors WHERE kind = 'service';

-- Why it is down: the last result's reason per location and per monitor.
ALTER TABLE monitoring.monitor_location_state ADD COLUMN last_error text;
ALTER TABLE monitoring.monitor_location_state ADD COLUMN last_error_kind text;
ALTER TABLE monitoring.monitor_location_state ADD COLUMN last_error_at timestamptz;
ALTER TABLE monitoring.monitor_state ADD COLUMN last_error text;
ALTER TABLE monitoring.monitor_state ADD COLUMN last_error_kind text;
ALTER TABLE monitoring.monitor_state ADD COLUMN last_error_at timestamptz;

-- Probe heartbeats (probes.heartbeat.<location>): one row per probe instance, the newest wins.
CREATE TABLE monitoring.probes (
  location text NOT NULL,
  instance text NOT NULL,
  version text NOT NULL,
  last_heartbeat_at timestamptz NOT NULL,
  heartbeat jsonb NOT NULL,
  PRIMARY KEY (location, instance)
);
