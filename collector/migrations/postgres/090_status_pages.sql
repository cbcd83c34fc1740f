-- Public status pages. A slug is unique across the installation because /status/{slug} is public.
CREATE TABLE monitoring.status_pages (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  description text NOT NULL DEFAULT '',
  is_public boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX status_pages_organization_idx ON monitoring.status_pages (organization_id, created_at);

-- What a page shows: domains and services (monitors) and devices, in `position` order. A deleted
-- monitor or device drops out of the page when it is read (joined, never shown dangling).
CREATE TABLE monitoring.status_page_components (
  id text PRIMARY KEY,
  page_id text NOT NULL REFERENCES monitoring.status_pages (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('domain', 'service', 'device')),
  subject_id text NOT NULL,
  display_name text NOT NULL,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (page_id, kind, subject_id)
);
CREATE INDEX status_page_components_page_idx ON monitoring.status_page_components (page_id, position);
