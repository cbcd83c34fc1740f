-- Alerting (README "Alerting"): channels are organization objects shared by many monitors; routes
-- choose channels per incident, escalation policies notify more people while nobody acknowledges.

CREATE TABLE monitoring.notification_channels (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  provider text NOT NULL,
  -- The provider's settings without its secret fields, which are sealed together in secrets_sealed.
  config jsonb NOT NULL DEFAULT '{}',
  secrets_sealed text,
  enabled boolean NOT NULL DEFAULT true,
  -- { timeZone, from 'HH:MM', to 'HH:MM', days [0-6]? }: non-critical alerts wait for a digest.
  quiet_hours jsonb,
  -- failing: the service refused the configuration (a 4xx); the next delivered message clears it.
  state text NOT NULL DEFAULT 'ok' CHECK (state IN ('ok', 'failing')),
  state_reason text,
  last_delivery_at timestamptz,
  last_delivery_status text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, name)
);
CREATE INDEX notification_channels_org_idx ON monitoring.notification_channels (organization_id, created_at);

CREATE TABLE monitoring.escalation_policies (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  -- [{ afterMinutes, channelIds }], afterMinutes counted from the incident's opening, increasing;
  -- minutes may be fractional (0.5 = 30 s), which drills and tests use.
  steps jsonb NOT NULL,
  repeat integer NOT NULL DEFAULT 0 CHECK (repeat BETWEEN 0 AND 10),
  repeat_after_minutes double precision NOT NULL DEFAULT 30 CHECK (repeat_after_minutes > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, name)
);

CREATE TABLE monitoring.notification_routes (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  position integer NOT NULL DEFAULT 0,
  -- The route every incident no other route took; one per organization.
  is_default boolean NOT NULL DEFAULT false,
  -- { monitorIds?, tags?, monitorKinds?, severities?, causes?, events? }: every field named must match.
  selector jsonb NOT NULL DEFAULT '{}',
  channel_ids text[] NOT NULL DEFAULT ARRAY[]::text[],
  escalation_policy_id text REFERENCES monitoring.escalation_policies (id) ON DELETE SET NULL,
  reminder_minutes double precision CHECK (reminder_minutes > 0),
  continue_matching boolean NOT NULL DEFAULT false,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, name)
);
CREATE UNIQUE INDEX notification_routes_default_idx ON monitoring.notification_routes (organization_id) WHERE is_default;

-- One escalation per incident and route that has a policy or reminders; its state survives restarts.
CREATE TABLE monitoring.incident_escalations (
  incident_id text NOT NULL,
  route_id text NOT NULL,
  organization_id text NOT NULL,
  policy_id text,
  round integer NOT NULL DEFAULT 0,
  next_step integer NOT NULL DEFAULT 0,
  next_step_at timestamptz,
  reminder_minutes double precision,
  next_reminder_at timestamptz,
  reminders_sent integer NOT NULL DEFAULT 0,
  notified_channel_ids text[] NOT NULL DEFAULT ARRAY[]::text[],
  stopped_at timestamptz,
  stopped_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (incident_id, route_id)
);
CREATE INDEX incident_escalations_step_idx ON monitoring.incident_escalations (next_step_at) WHERE stopped_at IS NULL;
CREATE INDEX incident_escalations_reminder_idx ON monitoring.incident_escalations (next_reminder_at) WHERE stopped_at IS NULL;

-- Deliveries to an organization channel carry it (principal is then 'channel:<id>'); held ones wait
-- for the end of quiet hours, superseded ones were replaced by a newer message of a flapping incident.
ALTER TABLE monitoring.notification_deliveries ADD COLUMN channel_id text;
ALTER TABLE monitoring.notification_deliveries ADD COLUMN incident_id text;
ALTER TABLE monitoring.notification_deliveries ADD COLUMN purpose text NOT NULL DEFAULT 'event';
CREATE INDEX notification_deliveries_channel_idx ON monitoring.notification_deliveries (channel_id, created_at DESC) WHERE channel_id IS NOT NULL;
CREATE INDEX notification_deliveries_incident_idx ON monitoring.notification_deliveries (incident_id, created_at) WHERE incident_id IS NOT NULL;
CREATE INDEX notification_deliveries_held_idx ON monitoring.notification_deliveries (next_attempt_at) WHERE status = 'held';

-- E-mail starts unticked: nobody has an address on file before they give one.
ALTER TABLE monitoring.notification_settings ALTER COLUMN email_notifications SET DEFAULT false;
