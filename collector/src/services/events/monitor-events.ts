import type { CheckResult, GuardEvent, Sql } from '@guard/shared'
import { truncateText } from '@guard/shared'
import type { CertificateState, MonitorMachine, QuorumRules, Transition } from '../monitor-state/transition.ts'
import { stageEvents } from './stage.ts'

/** A transition with what the events quote: the locations that agree and the deciding result. */
export interface DetectedTransition extends Transition {
  monitorId: string
  organizationId: string
  failing: string[]
  total: string[]
  result: CheckResult
}

export function detectedTransition(
  transition: Transition,
  result: CheckResult,
  entry: { machine: MonitorMachine; rules: QuorumRules; organizationId: string },
): DetectedTransition {
  const locations = [...entry.machine.locations.entries()].sort(([a], [b]) => a.localeCompare(b))
  return {
    ...transition,
    monitorId: result.monitorId,
    organizationId: entry.organizationId,
    failing: locations.filter(([, state]) => state.consecutiveFailures >= entry.rules.failureThreshold).map(([l]) => l),
    total: locations.map(([location]) => location),
    result,
  }
}

export interface CertificateSeen {
  monitorId: string
  organizationId: string
  certificate: CertificateState
  at: number
}

const THRESHOLDS = [30, 14, 7, 1] as const
const DAY_MS = 86_400_000

interface MonitorRow {
  id: string
  kind: 'domain' | 'service'
  name: string
  target: string
}

async function describeMonitors(tx: Sql, ids: string[]) {
  const { rows } = await tx.query<MonitorRow>(
    `SELECT id, kind, name,
            coalesce(target ->> 'url', coalesce(target ->> 'host', target ->> 'hostname') || coalesce(':' || (target ->> 'port'), ''), '') AS target
       FROM monitoring.monitors WHERE id = ANY($1)`,
    [ids],
  )
  return new Map(rows.map((row) => [row.id, row]))
}

/**
 * Stages monitor down/up events for the transitions the state machine decided, and a
 * certificate.expiring event the first time a certificate is seen past 30, 14, 7 or 1 days
 * before its expiry (only the nearest threshold crossed is announced; the others are marked).
 */
export async function stageMonitorEvents(
  tx: Sql,
  transitions: DetectedTransition[],
  certificates: CertificateSeen[],
): Promise<string[]> {
  const expiring = certificates
    .map((seen) => ({ ...seen, msLeft: Date.parse(seen.certificate.expiresAt) - seen.at }))
    .filter((seen) => seen.msLeft <= THRESHOLDS[0] * DAY_MS)
  const renewed = await renewedCertificates(tx, certificates)
  const ids = [
    ...new Set([
      ...transitions.map((t) => t.monitorId),
      ...expiring.map((c) => c.monitorId),
      ...renewed.map((r) => r.monitorId),
    ]),
  ]
  if (ids.length === 0) return []
  const monitors = await describeMonitors(tx, ids)
  const events: GuardEvent[] = []
  for (const transition of transitions) {
    const monitor = monitors.get(transition.monitorId)
    if (!monitor) continue
    const base = {
      v: 1 as const,
      id: `monitor.${transition.kind}:${transition.monitorId}:${transition.at}`,
      occurredAt: new Date(transition.at).toISOString(),
      organizationId: transition.organizationId,
    }
    const data = {
      monitorId: monitor.id,
      monitorKind: monitor.kind,
      monitorName: monitor.name,
      target: monitor.target,
      locations: { failing: transition.failing, total: transition.total },
    }
    if (transition.kind === 'down') {
      const { errorKind } = transition.result
      events.push({
        ...base,
        type: 'monitor.down',
        data: {
          ...data,
          ...(errorKind ? { errorKind } : {}),
          ...(transition.result.error ? { errorMessage: truncateText(transition.result.error, 2000) } : {}),
          ...(transition.result.statusCode !== undefined ? { statusCode: transition.result.statusCode } : {}),
        },
      })
    } else {
      events.push({ ...base, type: 'monitor.up', data })
    }
  }
  for (const seen of expiring) {
    const monitor = monitors.get(seen.monitorId)
    if (!monitor) continue
    const crossed = THRESHOLDS.filter((threshold) => seen.msLeft <= threshold * DAY_MS)
    const nearest = crossed[crossed.length - 1]!
    const { rows } = await tx.query<{ threshold: number }>(
      `INSERT INTO monitoring.certificate_notices (monitor_id, expires_at, threshold)
       SELECT $1, $2::timestamptz, t FROM unnest($3::int[]) AS t
       ON CONFLICT DO NOTHING RETURNING threshold`,
      [seen.monitorId, seen.certificate.expiresAt, crossed],
    )
    if (!rows.some((row) => row.threshold === nearest)) continue
    events.push({
      v: 1,
      id: `certificate.expiring:${seen.monitorId}:${new Date(seen.certificate.expiresAt).toISOString()}:${nearest}`,
      type: 'certificate.expiring',
      occurredAt: new Date(seen.at).toISOString(),
      organizationId: seen.organizationId,
      data: {
        monitorId: monitor.id,
        monitorKind: monitor.kind,
        monitorName: monitor.name,
        target: monitor.target,
        expiresAt: new Date(seen.certificate.expiresAt).toISOString(),
        issuer: truncateText(seen.certificate.issuer, 500),
        daysLeft: Math.max(0, Math.floor(seen.msLeft / DAY_MS)),
        threshold: nearest,
      },
    })
  }
  for (const renewal of renewed) {
    const monitor = monitors.get(renewal.monitorId)
    if (!monitor) continue
    events.push({
      v: 1,
      id: `certificate.renewed:${renewal.monitorId}:${renewal.previousExpiresAt}`,
      type: 'certificate.renewed',
      occurredAt: new Date(renewal.at).toISOString(),
      organizationId: renewal.organizationId,
      data: {
        monitorId: monitor.id,
        monitorKind: monitor.kind,
        monitorName: monitor.name,
        target: monitor.target,
        previousExpiresAt: renewal.previousExpiresAt,
        expiresAt: new Date(renewal.certificate.expiresAt).toISOString(),
        issuer: truncateText(renewal.certificate.issuer, 500),
      },
    })
  }
  return stageEvents(tx, events)
}

/**
 * Certificates that replaced one whose expiry was announced: their notices are forgotten (one
 * set-based statement per batch) and each replaced expiry yields one certificate.renewed.
 */
async function renewedCertificates(tx: Sql, certificates: CertificateSeen[]) {
  if (certificates.length === 0) return []
  const { rows } = await tx.query<{ monitor_id: string; expires_at: Date }>(
    `DELETE FROM monitoring.certificate_notices n
      USING unnest($1::text[], $2::timestamptz[]) AS c(monitor_id, expires_at)
      WHERE n.monitor_id = c.monitor_id AND n.expires_at < c.expires_at
      RETURNING n.monitor_id, n.expires_at`,
    [certificates.map((seen) => seen.monitorId), certificates.map((seen) => seen.certificate.expiresAt)],
  )
  const seen = new Map(certificates.map((entry) => [entry.monitorId, entry]))
  const unique = new Map(rows.map((row) => [`${row.monitor_id}:${new Date(row.expires_at).toISOString()}`, row]))
  return [...unique.values()].map((row) => ({
    ...seen.get(row.monitor_id)!,
    previousExpiresAt: new Date(row.expires_at).toISOString(),
  }))
}
