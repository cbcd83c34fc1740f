import type { Sql } from '@guard/shared'
import { readMonitorStates, type StoredError } from '../monitor-state/read.ts'
import { type LastErrorView, lastErrorView } from '../monitors/schemas.ts'
import { averageOf, uptimeOf } from '../results/window.ts'
import { readLastDay } from '../summaries/read.ts'
import type { DomainDetail } from './schemas.ts'

export type DomainMetrics = Pick<
  DomainDetail,
  'status' | 'uptimePercentage' | 'responseTime' | 'lastCheck' | 'certificate' | 'lastError' | 'failingLocations'
>

/** A stored reason as the API shows it; a kind this version does not know reads as `unknown`. */
export function lastErrorOf(error: StoredError): LastErrorView {
  const parsed = lastErrorView.safeParse(error)
  return parsed.success ? parsed.data : { ...error, kind: 'unknown' }
}

const roundedOrNull = (value: number | null) => (value === null ? null : Math.round(value))

export const noMetrics: DomainMetrics = {
  status: 'unknown',
  uptimePercentage: null,
  responseTime: null,
  lastCheck: null,
  certificate: null,
  lastError: null,
  failingLocations: [],
}

/**
 * Status, last check and certificate come from the monitor state machine; uptime and response time
 * over the last 24 hours from the summary the ingest keeps current (services/summaries): a page of
 * domains costs a few PostgreSQL reads and no ClickHouse query.
 */
export async function domainMetrics(sql: Sql, ids: string[]): Promise<Map<string, DomainMetrics>> {
  const [states, windows] = await Promise.all([readMonitorStates(sql, ids), readLastDay(sql, ids)])
  const metrics = new Map<string, DomainMetrics>()
  for (const id of ids) {
    const state = states.get(id)
    const window = windows.get(id)
    metrics.set(id, {
      status: state?.status ?? 'unknown',
      uptimePercentage: uptimeOf(window),
      responseTime: roundedOrNull(averageOf(window)),
      lastCheck: state?.lastCheckAt ?? null,
      certificate: state?.certificate ?? null,
      lastError: state?.lastError ? lastErrorOf(state.lastError) : null,
      failingLocations: state?.failingLocations ?? [],
    })
  }
  return metrics
}
