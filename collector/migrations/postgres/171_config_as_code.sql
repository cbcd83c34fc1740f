-- Monitoring as code (issue 32): a guard.yaml entry's stable key, per organization and kind, and
-- the object it stands for. A mapping table rather than columns on each object's table, so a
-- rename in the document is a rename of the object, and one join answers "managed by code".
CREATE TABLE monitoring.config_keys (
  organization_id text NOT NULL,
  kind text NOT NULL,
  key text NOT NULL,
  object_id text NOT NULL,
  -- Created or adopted by an apply: only these are pruned unless pruneUnmanaged is asked for.
  managed_by_code boolean NOT NULL DEFAULT true,
  -- SHA-256 of the write-only fields last applied (credentials, secrets): what plan compares them by.
  secret_hash text,
  PRIMARY KEY (organization_id, kind, key),
  UNIQUE (organization_id, kind, object_id)
);

-- Who applied what, when: one row per apply, its changes and failures as plan reported them.
CREATE TABLE monitoring.config_applies (
  id text PRIMARY KEY,
  organization_id text NOT NULL,
  principal_kind text NOT NULL,
  principal_id text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  changes jsonb NOT NULL,
  failures jsonb NOT NULL
);
CREATE INDEX config_applies_organization_idx ON monitoring.config_applies (organization_id, applied_at DESC);
