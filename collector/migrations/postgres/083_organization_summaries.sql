-- The 24-hour figures of an organization's monitors of one kind, added up: what organization stats
-- read instead of summing 30,000 summary rows per request at 10,000 monitors. Like the per-monitor
-- copies, recomputed (by the summary refresher, in the transaction that rewrote them, and when a
-- monitor is deleted), never incremented.
CREATE TABLE monitoring.organization_summary (
  organization_id text NOT NULL,
  kind text NOT NULL,
  -- Monitors with checks in the window, and the sum of their uptime percentages (each rounded to
  -- two decimals, as a list page shows it): the average uptime is one over the other.
  monitors_with_checks integer NOT NULL,
  uptime_sum double precision NOT NULL,
  checks bigint NOT NULL,
  failures bigint NOT NULL,
  rt_sum double precision NOT NULL,
  refreshed_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, kind)
);
