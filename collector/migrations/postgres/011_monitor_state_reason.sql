-- A monitor's lastError is the newest of its locations' (monitor_location_state); the copy 010
-- added to monitor_state was never read.
ALTER TABLE monitoring.monitor_state DROP COLUMN last_error;
ALTER TABLE monitoring.monitor_state DROP COLUMN last_error_kind;
ALTER TABLE monitoring.monitor_state DROP COLUMN last_error_at;
