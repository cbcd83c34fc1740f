-- What list pages, summaries and stats read instead of asking ClickHouse per request. Both tables
-- are copies of ClickHouse's rollups (which hold each result once: the ingest deduplicates before
-- inserting), recomputed per monitor rather than incremented, so a redelivered or late result can
-- never be counted twice here: the refresher (services/summaries/refresh.ts) rewrites a monitor's
-- rows from the rollups after each batch that touched it, and every monitor's periodically.

-- Last 24 hours per monitor and location.
CREATE TABLE monitoring.monitor_summary (
  monitor_id text NOT NULL REFERENCES monitoring.monitors (id) ON DELETE CASCADE,
  location text NOT NULL,
  checks integer NOT NULL,
  failures integer NOT NULL,
  rt_sum double precision NOT NULL,
  refreshed_at timestamptz NOT NULL,
  PRIMARY KEY (monitor_id, location)
);

-- One row per monitor, location and UTC day: the 7, 30 and 90 day figures add these up.
CREATE TABLE monitoring.monitor_daily (
  monitor_id text NOT NULL REFERENCES monitoring.monitors (id) ON DELETE CASCADE,
  day date NOT NULL,
  location text NOT NULL,
  checks integer NOT NULL,
  failures integer NOT NULL,
  rt_sum double precision NOT NULL,
  rt_min double precision NOT NULL,
  rt_max double precision NOT NULL,
  p95 double precision NOT NULL,
  PRIMARY KEY (monitor_id, day, location)
);
