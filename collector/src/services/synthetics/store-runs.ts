import type { CheckResult, Sql } from '@guard/shared'

/** Runs kept per synthetic check; older ones are dropped as new ones arrive. */
export const KEPT_RUNS = 100

/**
 * Keeps the step details of multi-step results and what browser runs recorded, which ClickHouse
 * does not store, as the check's last runs. Idempotent (a redelivered result is skipped), and a result of a monitor deleted
 * meanwhile is dropped rather than refused, so it cannot block the ingest.
 */
export async function storeSyntheticRuns(sql: Pick<Sql, 'query'>, results: readonly CheckResult[]): Promise<void> {
  const runs = results.flatMap((result) =>
    (result.kind === 'flow' && result.details?.steps) || (result.kind === 'browser' && result.details?.browser)
      ? [
          {
            result_id: result.id,
            monitor_id: result.monitorId,
            organization_id: result.organizationId,
            location: result.location,
            started_at: result.startedAt,
            status: result.status,
            response_time_ms: result.responseTimeMs,
            error: result.error ?? null,
            error_kind: result.errorKind ?? null,
            steps: result.details?.steps ?? [],
            browser: result.details?.browser ?? null,
          },
        ]
      : [],
  )
  if (runs.length === 0) return
  await sql.query(
    `INSERT INTO monitoring.synthetic_runs
       (result_id, monitor_id, organization_id, location, started_at, status, response_time_ms, error, error_kind, steps,
        browser)
     SELECT r.result_id, r.monitor_id, r.organization_id, r.location, r.started_at, r.status, r.response_time_ms,
            r.error, r.error_kind, r.steps, r.browser
       FROM jsonb_to_recordset($1::jsonb) AS r(result_id text, monitor_id text, organization_id text, location text,
            started_at timestamptz, status text, response_time_ms double precision, error text, error_kind text,
            steps jsonb, browser jsonb)
      WHERE EXISTS (SELECT 1 FROM monitoring.monitors m
                     WHERE m.id = r.monitor_id AND m.organization_id = r.organization_id AND m.kind = 'synthetic')
     ON CONFLICT (result_id) DO NOTHING`,
    [JSON.stringify(runs)],
  )
  await sql.query(
    `DELETE FROM monitoring.synthetic_runs r
      USING (SELECT result_id, row_number() OVER (PARTITION BY monitor_id ORDER BY started_at DESC) AS n
               FROM monitoring.synthetic_runs WHERE monitor_id = ANY($1)) AS ranked
      WHERE r.result_id = ranked.result_id AND ranked.n > $2`,
    [[...new Set(runs.map((run) => run.monitor_id))], KEPT_RUNS],
  )
}
