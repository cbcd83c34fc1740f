-- How a public page looks: colour scheme, accent colour, logo, header links, and the time zone its
-- times are shown in. Validated by the API (zod); the columns only keep what it accepted.
ALTER TABLE monitoring.status_pages
  ADD COLUMN theme text NOT NULL DEFAULT 'auto' CHECK (theme IN ('auto', 'light', 'dark')),
  ADD COLUMN accent_color text,
  ADD COLUMN logo_url text,
  ADD COLUMN links jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN timezone text NOT NULL DEFAULT 'UTC';
