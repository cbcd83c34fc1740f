import type { TimeSeriesStore } from '@guard/shared'
import { isoFromMillis, selectRows } from '../results/query.ts'
import type { DomainDetail } from './schemas.ts'

export type DomainMetrics = Pick<DomainDetail, 'status' | 'uptimePercentage' | 'responseTime' | 'lastCheck'>

const WINDOW_SECONDS = 86_400

export const noMetrics: DomainMetrics = { status: 'unknown', uptimePercentage: 0, responseTime: 0, lastCheck: null }

interface LocationRow {
  monitor_id: string
  last_status: string
  last_check: string
  checks: string
  ok: string
  avg_ms: number
}

/**
 * Status, uptime and response time of each domain over the last 24 hours. A domain is `down`
 * when at least half of its locations saw `down` on their latest check; `degraded` counts as up.
 */
export async function domainMetrics(
  timeseries: TimeSeriesStore,
  organizationId: string,
  ids: string[],
): Promise<Map<string, DomainMetrics>> {
  const metrics = new Map<string, DomainMetrics>()
  if (ids.length === 0) return metrics
  const rows = await selectRows<LocationRow>(
    timeseries,
    `SELECT monitor_id,
            argMax(status, started_at) AS last_status,
            toUnixTimestamp64Milli(max(started_at)) AS last_check,
            count() AS checks,
            countIf(status != 'down') AS ok,
            avg(response_time_ms) AS avg_ms
       FROM check_results FINAL
      WHERE organization_id = {org:String}
        AND monitor_id IN {ids:Array(String)}
        AND started_at >= now64(3) - toIntervalSecond({window:UInt32})
      GROUP BY monitor_id, location`,
    { org: organizationId, ids, window: WINDOW_SECONDS },
  )
  const byMonitor = new Map<string, LocationRow[]>()
  for (const row of rows) byMonitor.set(row.monitor_id, [...(byMonitor.get(row.monitor_id) ?? []), row])
  for (const [id, locations] of byMonitor) {
    const checks = locations.reduce((sum, row) => sum + Number(row.checks), 0)
    const ok = locations.reduce((sum, row) => sum + Number(row.ok), 0)
    const weightedMs = locations.reduce((sum, row) => sum + row.avg_ms * Number(row.checks), 0)
    const down = locations.filter((row) => row.last_status === 'down').length
    metrics.set(id, {
      status: down * 2 >= locations.length ? 'down' : 'up',
      uptimePercentage: checks === 0 ? 0 : Math.round((ok / checks) * 10_000) / 100,
      responseTime: checks === 0 ? 0 : Math.round(weightedMs / checks),
      lastCheck: isoFromMillis(Math.max(...locations.map((row) => Number(row.last_check)))),
    })
  }
  return metrics
}

interface CertificateRow {
  cert_valid: number
  cert_expires_at: string
  cert_issuer: string
}

/** The certificate seen by the most recent check that reported one. */
export async function latestCertificate(
  timeseries: TimeSeriesStore,
  organizationId: string,
  id: string,
): Promise<DomainDetail['certificate']> {
  const [row] = await selectRows<CertificateRow>(
    timeseries,
    `SELECT cert_valid, toUnixTimestamp64Milli(cert_expires_at) AS cert_expires_at, cert_issuer
       FROM check_results FINAL
      WHERE organization_id = {org:String} AND monitor_id = {id:String} AND cert_valid IS NOT NULL
      ORDER BY started_at DESC LIMIT 1`,
    { org: organizationId, id },
  )
  if (!row) return null
  return { valid: row.cert_valid === 1, expiresAt: isoFromMillis(row.cert_expires_at), issuer: row.cert_issuer }
}
