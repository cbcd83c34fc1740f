-- Events staged in the transaction that decided them, published to the bus by the relay
-- (README "Events"): a crash between the decision and the publish loses nothing.
CREATE TABLE monitoring.event_outbox (
  id text PRIMARY KEY,
  subject text NOT NULL,
  payload text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz
);
CREATE INDEX event_outbox_pending_idx ON monitoring.event_outbox (created_at) WHERE published_at IS NULL;

-- Which consumer already handled which event: the idempotency of every bus consumer.
CREATE TABLE monitoring.processed_events (
  consumer text NOT NULL,
  event_id text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);

-- Each certificate threshold (30, 14, 7, 1 days) is announced once per monitor and certificate.
CREATE TABLE monitoring.certificate_notices (
  monitor_id text NOT NULL,
  expires_at timestamptz NOT NULL,
  threshold integer NOT NULL,
  PRIMARY KEY (monitor_id, expires_at, threshold)
);

CREATE TABLE monitoring.incidents (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  status text NOT NULL,
  severity text NOT NULL,
  impact text NOT NULL DEFAULT 'none',
  cause text NOT NULL,
  monitor_id text,
  monitor_kind text,
  affected_services text[] NOT NULL DEFAULT ARRAY[]::text[],
  affected_domains text[] NOT NULL DEFAULT ARRAY[]::text[],
  affected_devices text[] NOT NULL DEFAULT ARRAY[]::text[],
  detected_at timestamptz NOT NULL,
  acknowledged_at timestamptz,
  acknowledged_by text,
  resolved_at timestamptz,
  resolved_by text,
  -- Times the incident was reopened by a bounce inside the flapping window.
  flap_count integer NOT NULL DEFAULT 0,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incidents_organization_idx ON monitoring.incidents (organization_id, detected_at DESC);
CREATE INDEX incidents_monitor_idx ON monitoring.incidents (monitor_id, cause, detected_at DESC);
-- At most one open incident per monitor and cause, whatever replicas race.
CREATE UNIQUE INDEX incidents_one_open_idx ON monitoring.incidents (monitor_id, cause) WHERE resolved_at IS NULL AND monitor_id IS NOT NULL;

-- The downtime the state machine recorded before incidents existed becomes resolved incidents.
INSERT INTO monitoring.incidents (id, organization_id, title, status, severity, cause, monitor_id, monitor_kind,
                                  detected_at, resolved_at)
SELECT i.id, i.organization_id, 'Monitor down', CASE WHEN i.resolved_at IS NULL THEN 'open' ELSE 'resolved' END,
       'high', 'down', i.monitor_id, CASE WHEN d.id IS NULL THEN 'service' ELSE 'domain' END, i.started_at, i.resolved_at
  FROM monitoring.monitor_incidents i LEFT JOIN monitoring.domains d ON d.id = i.monitor_id;
DROP TABLE monitoring.monitor_incidents;

CREATE TABLE monitoring.incident_updates (
  id text PRIMARY KEY,
  incident_id text NOT NULL REFERENCES monitoring.incidents (id) ON DELETE CASCADE,
  organization_id text NOT NULL,
  message text NOT NULL,
  status text NOT NULL,
  automatic boolean NOT NULL DEFAULT false,
  author text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incident_updates_incident_idx ON monitoring.incident_updates (incident_id, created_at);

CREATE TABLE monitoring.incident_comments (
  id text PRIMARY KEY,
  incident_id text NOT NULL REFERENCES monitoring.incidents (id) ON DELETE CASCADE,
  organization_id text NOT NULL,
  content text NOT NULL,
  is_internal boolean NOT NULL DEFAULT false,
  author text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incident_comments_incident_idx ON monitoring.incident_comments (incident_id, created_at);

-- Per organization, or per monitor when monitor_id is set; recurring windows repeat every
-- `recurrence` from starts_at, each lasting ends_at - starts_at, until `until`.
CREATE TABLE monitoring.maintenance_windows (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  monitor_id text,
  title text NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  recurrence text NOT NULL DEFAULT 'none',
  until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX maintenance_windows_organization_idx ON monitoring.maintenance_windows (organization_id);

-- The activity feed: one line per event of the organization.
CREATE TABLE monitoring.activity (
  event_id text PRIMARY KEY,
  organization_id text NOT NULL,
  type text NOT NULL,
  summary text NOT NULL,
  subject_id text,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX activity_organization_idx ON monitoring.activity (organization_id, occurred_at DESC);

-- Per principal (user or API key) and organization; a row makes its principal a recipient.
CREATE TABLE monitoring.notification_settings (
  organization_id text NOT NULL,
  principal text NOT NULL,
  email_notifications boolean NOT NULL DEFAULT true,
  browser_notifications boolean NOT NULL DEFAULT true,
  email_incidents boolean NOT NULL DEFAULT true,
  email_downtime boolean NOT NULL DEFAULT true,
  email_weekly_reports boolean NOT NULL DEFAULT false,
  slack_enabled boolean NOT NULL DEFAULT false,
  slack_webhook_url text,
  webhook_url text,
  -- The Standard Webhooks signing secret, sealed with the purpose key (never stored in clear).
  webhook_secret_sealed text,
  email text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, principal)
);

CREATE TABLE monitoring.notifications (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  principal text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  message text NOT NULL,
  incident_id text,
  is_read boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, principal, event_id)
);
CREATE INDEX notifications_principal_idx ON monitoring.notifications (organization_id, principal, created_at DESC);

-- The delivery outbox: one durable job per event, recipient and channel (README "Notifications").
CREATE TABLE monitoring.notification_deliveries (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  principal text NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL,
  channel text NOT NULL,
  target text NOT NULL,
  payload text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  give_up_at timestamptz NOT NULL,
  last_status_code integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  UNIQUE (event_id, principal, channel)
);
CREATE INDEX notification_deliveries_due_idx ON monitoring.notification_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX notification_deliveries_org_idx ON monitoring.notification_deliveries (organization_id, created_at DESC);

CREATE TABLE monitoring.notification_attempts (
  delivery_id text NOT NULL REFERENCES monitoring.notification_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  status_code integer,
  error text,
  duration_ms integer NOT NULL,
  PRIMARY KEY (delivery_id, attempt)
);

-- Scheduled jobs that must run once per period across replicas: the first to insert runs it.
CREATE TABLE monitoring.job_runs (
  job text NOT NULL,
  period text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job, period)
);
