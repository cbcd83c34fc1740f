-- Response-time thresholds for every kind of probe check (README "Response-time thresholds"): a
-- check slower than degraded_above_ms is degraded, slower than down_above_ms is down. NULL: none.
ALTER TABLE monitoring.monitors ADD COLUMN degraded_above_ms integer CHECK (degraded_above_ms > 0);
ALTER TABLE monitoring.monitors ADD COLUMN down_above_ms integer CHECK (down_above_ms > 0);
