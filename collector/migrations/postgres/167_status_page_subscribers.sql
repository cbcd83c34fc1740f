-- Status page subscribers (README "Status page subscribers"). Addresses are personal data: a row is
-- deleted on unsubscribe or removal, with its deliveries; an unconfirmed one is deleted after 48 hours.
CREATE TABLE monitoring.status_page_subscribers (
  id text PRIMARY KEY,
  page_id text NOT NULL REFERENCES monitoring.status_pages (id) ON DELETE CASCADE,
  organization_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('email', 'webhook')),
  -- The e-mail address (lower-cased) or the webhook URL.
  target text NOT NULL,
  -- The webhook's Standard Webhooks secret, sealed; null for e-mail.
  secret_sealed text,
  -- Component ids followed; empty follows the whole page.
  component_ids text[] NOT NULL DEFAULT ARRAY[]::text[],
  -- SHA-256 of the double opt-in token until it is used; the token itself is never stored.
  confirm_hash text,
  confirmed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX status_page_subscribers_page_idx ON monitoring.status_page_subscribers (page_id, created_at);
-- One subscription per address and page; a webhook URL may hold several, each with its own secret.
CREATE UNIQUE INDEX status_page_subscribers_email_idx ON monitoring.status_page_subscribers (page_id, target)
  WHERE kind = 'email';

-- Hours ahead a maintenance window is announced to subscribers; each occurrence once.
ALTER TABLE monitoring.status_pages ADD COLUMN maintenance_notice_hours integer NOT NULL DEFAULT 24
  CHECK (maintenance_notice_hours BETWEEN 0 AND 720);
CREATE TABLE monitoring.status_page_maintenance_notices (
  page_id text NOT NULL REFERENCES monitoring.status_pages (id) ON DELETE CASCADE,
  window_id text NOT NULL,
  starts_at timestamptz NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (page_id, window_id, starts_at)
);

-- A subscriber's deliveries (principal `subscriber:<id>`) hold its address: they go with it, however
-- it goes (unsubscribed, removed, or its page deleted).
CREATE INDEX notification_deliveries_principal_idx ON monitoring.notification_deliveries (principal)
  WHERE principal LIKE 'subscriber:%';
CREATE FUNCTION monitoring.forget_subscriber_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM monitoring.notification_deliveries WHERE principal = 'subscriber:' || OLD.id;
  RETURN OLD;
END
$$;
CREATE TRIGGER status_page_subscribers_forget AFTER DELETE ON monitoring.status_page_subscribers
  FOR EACH ROW EXECUTE FUNCTION monitoring.forget_subscriber_deliveries();
