-- 1 when the probe's own connectivity canary was failing as this check ran (README "Dependencies"):
-- a failure so flagged says nothing about the target, so SLOs and uptime read from raw results skip
-- it, as the state machine does. 0 for results stored before this column.
ALTER TABLE check_results ADD COLUMN IF NOT EXISTS probe_degraded UInt8 DEFAULT 0 AFTER error_kind
