-- A group (README "Groups") as one status-page component, shown with its members' states. Like the
-- other kinds, a deleted group drops out of the page when it is read.
ALTER TABLE monitoring.status_page_components DROP CONSTRAINT status_page_components_kind_check;
ALTER TABLE monitoring.status_page_components ADD CONSTRAINT status_page_components_kind_check
  CHECK (kind IN ('domain', 'service', 'heartbeat', 'device', 'group'));
