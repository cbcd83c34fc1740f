-- List pages read an organization's monitors newest first, a page at a time. With the page's whole
-- order in the index, a page is a range of it instead of a sort of every monitor the organization
-- has (10,000 in bench/scale). It replaces the index without `id`, which it serves as well.
CREATE INDEX monitors_listing_idx ON monitoring.monitors (organization_id, kind, created_at DESC, id DESC);
DROP INDEX monitoring.monitors_organization_idx;
