import type { GuardEvent, Sql } from '@guard/shared'
import { stageEvents } from '../../events/stage.ts'
import type { DomainMonitor } from './domain-monitors.ts'

const THRESHOLDS = [30, 14, 7, 1] as const
const DAY_MS = 86_400_000

interface KnownExpiry {
  domain: string
  expires_at: Date
  registrar: string | null
}

/** The expiry of each domain whose last lookup found one (a failed lookup announces nothing). */
async function knownExpiries(tx: Sql, domains: string[]) {
  const { rows } = await tx.query<KnownExpiry>(
    `SELECT domain, expires_at, registrar FROM monitoring.domain_registrations
      WHERE domain = ANY($1) AND expires_at IS NOT NULL AND error_kind IS NULL`,
    [domains],
  )
  return new Map(rows.map((row) => [row.domain, row]))
}

const monitorRef = (monitor: DomainMonitor) => ({
  monitorId: monitor.id,
  monitorKind: 'domain' as const,
  monitorName: monitor.name,
  target: monitor.url,
  domain: monitor.domain,
})

/**
 * In one transaction, for each monitor: a `domain.renewed` when the registry now publishes a later
 * expiry than one announced (its notices are forgotten), and a `domain.expiring` the first time
 * its expiry is within 30, 14, 7 or 1 days; a first sighting inside several thresholds announces
 * only the nearest and marks the others. The notices' primary key makes each threshold of each
 * expiry date announce once, whatever runs and replicas repeat it. Returns the event ids staged.
 */
export async function announceRegistrationExpiry(sql: Sql, monitors: DomainMonitor[], now: Date): Promise<string[]> {
  if (monitors.length === 0) return []
  return sql.transaction(async (tx) => {
    const expiries = await knownExpiries(tx, [...new Set(monitors.map((monitor) => monitor.domain))])
    const seen = monitors.flatMap((monitor) => {
      const expiry = expiries.get(monitor.domain)
      return expiry ? [{ monitor, expiry, expiresAt: new Date(expiry.expires_at).toISOString() }] : []
    })
    const events: GuardEvent[] = []
    const { rows: renewed } = await tx.query<{ monitor_id: string; expires_at: Date }>(
      `DELETE FROM monitoring.registration_notices n
        USING unnest($1::text[], $2::timestamptz[]) AS c(monitor_id, expires_at)
        WHERE n.monitor_id = c.monitor_id AND n.expires_at < c.expires_at
        RETURNING n.monitor_id, n.expires_at`,
      [seen.map((entry) => entry.monitor.id), seen.map((entry) => entry.expiresAt)],
    )
    const byMonitor = new Map(seen.map((entry) => [entry.monitor.id, entry]))
    const previous = new Map(renewed.map((row) => [`${row.monitor_id}:${new Date(row.expires_at).toISOString()}`, row]))
    for (const row of previous.values()) {
      const entry = byMonitor.get(row.monitor_id)!
      const previousExpiresAt = new Date(row.expires_at).toISOString()
      events.push({
        v: 1,
        id: `domain.renewed:${entry.monitor.id}:${previousExpiresAt}`,
        type: 'domain.renewed',
        occurredAt: now.toISOString(),
        organizationId: entry.monitor.organizationId,
        data: { ...monitorRef(entry.monitor), previousExpiresAt, expiresAt: entry.expiresAt },
      })
    }
    for (const { monitor, expiry, expiresAt } of seen) {
      const msLeft = Date.parse(expiresAt) - now.getTime()
      const crossed = THRESHOLDS.filter((threshold) => msLeft <= threshold * DAY_MS)
      const nearest = crossed[crossed.length - 1]
      if (nearest === undefined) continue
      const { rows } = await tx.query<{ threshold: number }>(
        `INSERT INTO monitoring.registration_notices (monitor_id, expires_at, threshold)
         SELECT $1, $2::timestamptz, t FROM unnest($3::int[]) AS t
         ON CONFLICT DO NOTHING RETURNING threshold`,
        [monitor.id, expiresAt, crossed],
      )
      if (!rows.some((row) => row.threshold === nearest)) continue
      events.push({
        v: 1,
        id: `domain.expiring:${monitor.id}:${expiresAt}:${nearest}`,
        type: 'domain.expiring',
        occurredAt: now.toISOString(),
        organizationId: monitor.organizationId,
        data: {
          ...monitorRef(monitor),
          expiresAt,
          ...(expiry.registrar ? { registrar: expiry.registrar } : {}),
          daysLeft: Math.max(0, Math.floor(msLeft / DAY_MS)),
          threshold: nearest,
        },
      })
    }
    return stageEvents(tx, events)
  })
}
