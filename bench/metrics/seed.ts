import type { Sql } from '@guard/shared'

/** `monitors` monitors as the state holds them: 3 locations each, 24-hour figures, a certificate, two tags, 1% with an open incident. */
export async function seedMonitorState(
  sql: Sql,
  { organizationId, monitors }: { organizationId: string; monitors: number },
) {
  await sql.query(
    `INSERT INTO monitoring.monitors (id, organization_id, kind, name, target, check_interval, timeout_seconds, tags)
     SELECT 'mon-' || i, $2, 'domain', 'shop ' || i,
            jsonb_build_object('kind', 'http', 'method', 'GET', 'url', 'https://shop' || i || '.guard-bench-' || (i % 100) || '.com'),
            60, 30, ARRAY['env:' || CASE WHEN i % 3 = 0 THEN 'staging' ELSE 'prod' END, 'team:t' || (i % 20)]
       FROM generate_series(1, $1) AS i`,
    [monitors, organizationId],
  )
  await sql.query(
    `INSERT INTO monitoring.monitor_state (monitor_id, organization_id, status, changed_at, last_check_at, consecutive_failures, certificate)
     SELECT 'mon-' || i, $2, CASE WHEN i % 100 = 0 THEN 'down' ELSE 'up' END, now(), now(), 0,
            jsonb_build_object('valid', true, 'issuer', 'Bench CA', 'expiresAt', to_char((now() + (i % 90) * interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
       FROM generate_series(1, $1) AS i`,
    [monitors, organizationId],
  )
  await sql.query(
    `INSERT INTO monitoring.monitor_location_state (monitor_id, location, status, consecutive_failures, last_result_at)
     SELECT 'mon-' || i, l, 'up', 0, now() FROM generate_series(1, $1) AS i, unnest(ARRAY['fra', 'iad', 'sin']) AS l`,
    [monitors],
  )
  await sql.query(
    `INSERT INTO monitoring.monitor_summary (monitor_id, location, checks, failures, rt_sum, refreshed_at)
     SELECT 'mon-' || i, l, 1440, i % 7, 1440 * (50 + i % 300), now()
       FROM generate_series(1, $1) AS i, unnest(ARRAY['fra', 'iad', 'sin']) AS l`,
    [monitors],
  )
  await sql.query(
    `INSERT INTO monitoring.incidents (id, organization_id, title, status, severity, cause, monitor_id, detected_at)
     SELECT 'inc-' || i, $2, 'down', 'open', 'high', 'down', 'mon-' || i, now()
       FROM generate_series(100, $1, 100) AS i`,
    [monitors, organizationId],
  )
  await sql.query(
    `INSERT INTO monitoring.domain_registrations (domain, expires_at, checked_at)
     SELECT 'guard-bench-' || i || '.com', now() + interval '200 days', now() FROM generate_series(0, 99) AS i`,
  )
}
