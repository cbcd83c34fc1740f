-- What visitors of a status page read about an incident (README "Status pages and dashboard"): the
-- probe's raw text names hosts and ports, so automatic updates keep what their public wording is
-- derived from, and operators may replace the wording or hold automatic incidents as drafts.
ALTER TABLE monitoring.status_pages ADD COLUMN automatic_incidents text NOT NULL DEFAULT 'publish'
  CHECK (automatic_incidents IN ('publish', 'draft'));
ALTER TABLE monitoring.incidents ADD COLUMN public_title text, ADD COLUMN published_at timestamptz;
ALTER TABLE monitoring.incident_updates ADD COLUMN error_kind text, ADD COLUMN status_code integer,
  ADD COLUMN public_message text;
