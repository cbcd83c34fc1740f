-- A device's health follows a level only once it has held for a while (a busy machine crosses a
-- threshold for seconds all the time): per metric, `<metric>_hold_seconds` going up and coming down.
-- `health_hold` keeps, per metric, the level it holds and since when its samples stayed on each side
-- of each threshold; it replaces the count of heartbeats in a row a level had to hold.
ALTER TABLE monitoring.devices
  ADD COLUMN cpu_hold_seconds integer NOT NULL DEFAULT 300,
  ADD COLUMN memory_hold_seconds integer NOT NULL DEFAULT 300,
  ADD COLUMN disk_hold_seconds integer NOT NULL DEFAULT 300,
  ADD COLUMN health_hold jsonb NOT NULL DEFAULT '{}'::jsonb,
  DROP COLUMN health_candidate,
  DROP COLUMN health_candidate_count;
