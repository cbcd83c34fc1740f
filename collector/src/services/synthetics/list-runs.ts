import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor } from '../monitors/find.ts'
import { runViewOf } from './run-view.ts'
import type { SyntheticRunView } from './schemas.ts'
import { KEPT_RUNS } from './store-runs.ts'

export const listRunsInput = z.object({
  id: z.string().min(1).max(64),
  limit: z.number().int().min(1).max(KEPT_RUNS).default(20),
})

/** The check's last runs, newest first, each with its steps' outcomes and timings (a browser run's vitals and artifacts too). */
export async function listSyntheticRuns({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: z.input<typeof listRunsInput>
}): Promise<SyntheticRunView[]> {
  const query = listRunsInput.parse(input)
  const monitor = await findMonitor(ctx.sql, caller, 'synthetic', query.id)
  const { rows } = await ctx.sql.query<{
    result_id: string
    location: string
    started_at: Date
    status: SyntheticRunView['status']
    response_time_ms: number
    error: string | null
    error_kind: string | null
    steps: unknown
    browser: unknown
  }>(
    `SELECT result_id, location, started_at, status, response_time_ms, error, error_kind, steps, browser
       FROM monitoring.synthetic_runs WHERE monitor_id = $1 AND organization_id = $2
      ORDER BY started_at DESC LIMIT $3`,
    [monitor.id, monitor.organizationId, query.limit],
  )
  return rows.map((row) =>
    runViewOf(monitor.id, {
      id: row.result_id,
      location: row.location,
      startedAt: new Date(row.started_at).toISOString(),
      status: row.status,
      responseTimeMs: row.response_time_ms,
      error: row.error,
      errorKind: row.error_kind,
      steps: row.steps,
      browser: row.browser,
    }),
  )
}
