-- Browser checks (synthetic `type: 'browser'`): what a run recorded beside the result (steps with
-- durations, Web Vitals, console errors, failed requests, the failing step, stored artifacts).
-- Null for api runs, whose steps stay in `steps`. Screenshots and traces are files under
-- GUARD_DATA_DIR/artifacts, not rows.
ALTER TABLE monitoring.synthetic_runs ADD COLUMN browser jsonb;
