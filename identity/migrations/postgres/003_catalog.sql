-- The public plan catalog and the changelog. The catalog is published as one document (an
-- operator imports it whole), so it is one row; changelog entries are rows of their own.

CREATE TABLE identity.catalog (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  document jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE identity.changelog_entries (
  id text PRIMARY KEY,
  name text NOT NULL,
  app text NOT NULL,
  app_color text,
  version text NOT NULL,
  created_time timestamptz NOT NULL,
  content_md text NOT NULL,
  cover_image_url text
);
CREATE INDEX changelog_entries_app_time_idx ON identity.changelog_entries (app, created_time DESC);
CREATE INDEX changelog_entries_time_idx ON identity.changelog_entries (created_time DESC);
