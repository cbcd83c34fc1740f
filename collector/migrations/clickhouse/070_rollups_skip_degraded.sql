-- Rollups skip what raw reads skip: a failure from a probe whose own connectivity canary was
-- failing (060) says nothing about the target, so it is neither a check nor a failure of the minute
-- or hour, and uptime read from rollups agrees with uptime read from raw results. MODIFY QUERY
-- swaps each view in one step, so no insert lands between an old view and a new one.
ALTER TABLE check_results_1m_mv MODIFY QUERY
SELECT organization_id, monitor_id, location,
       toStartOfMinute(started_at) AS bucket,
       count() AS checks,
       countIf(status = 'down') AS failures,
       sum(response_time_ms) AS rt_sum,
       min(response_time_ms) AS rt_min,
       max(response_time_ms) AS rt_max,
       quantilesTDigestState(0.5, 0.95, 0.99)(response_time_ms) AS rt_quantiles
  FROM check_results
 WHERE NOT (probe_degraded = 1 AND status <> 'up')
 GROUP BY organization_id, monitor_id, location, bucket;

ALTER TABLE check_results_1h_mv MODIFY QUERY
SELECT organization_id, monitor_id, location,
       toStartOfHour(started_at) AS bucket,
       count() AS checks,
       countIf(status = 'down') AS failures,
       sum(response_time_ms) AS rt_sum,
       min(response_time_ms) AS rt_min,
       max(response_time_ms) AS rt_max,
       quantilesTDigestState(0.5, 0.95, 0.99)(response_time_ms) AS rt_quantiles
  FROM check_results
 WHERE NOT (probe_degraded = 1 AND status <> 'up')
 GROUP BY organization_id, monitor_id, location, bucket
