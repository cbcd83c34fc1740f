import type { Sql, TimeSeriesStore } from '@guard/shared'
import { readMonitorStates } from '../monitor-state/read.ts'
import { aggregateWindow, averageOf, uptimeOf } from '../results/window.ts'
import type { DomainDetail } from './schemas.ts'

export type DomainMetrics = Pick<
  DomainDetail,
  'status' | 'uptimePercentage' | 'responseTime' | 'lastCheck' | 'certificate'
>

const DAY = 86_400

export const noMetrics: DomainMetrics = {
  status: 'unknown',
  uptimePercentage: 0,
  responseTime: 0,
  lastCheck: null,
  certificate: null,
}

/**
 * Status, last check and certificate come from the monitor state machine (PostgreSQL); uptime and
 * response time cover the last 24 hours of per-minute rollups, so a page of domains costs one
 * small ClickHouse query whatever the raw row count.
 */
export async function domainMetrics(
  sql: Sql,
  timeseries: TimeSeriesStore,
  organizationIds: string[],
  ids: string[],
): Promise<Map<string, DomainMetrics>> {
  const [states, windows] = await Promise.all([
    readMonitorStates(sql, ids),
    aggregateWindow(timeseries, organizationIds, ids, DAY, { source: 'minute' }),
  ])
  const metrics = new Map<string, DomainMetrics>()
  for (const id of ids) {
    const state = states.get(id)
    const window = windows.get(id)
    metrics.set(id, {
      status: state?.status ?? 'unknown',
      uptimePercentage: uptimeOf(window),
      responseTime: Math.round(averageOf(window)),
      lastCheck: state?.lastCheckAt ?? null,
      certificate: state?.certificate ?? null,
    })
  }
  return metrics
}
