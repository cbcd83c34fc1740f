import { type EventOf, type IncidentCause, type IncidentSeverity, newId, type Sql } from '@guard/shared'
import type { CollectorContext } from '../../context.ts'
import type { EventHandlers, HandlerScope } from '../../ingest/consume-events.ts'
import { endSuppression, linkSuppressedTo, suppressFailure } from '../dependencies/suppress.ts'
import { isUnderMaintenance } from '../maintenance-windows/find.ts'
import type { SubjectKind } from '../monitors/kinds/index.ts'
import { invalidateIngestedReads } from '../read-cache/invalidate.ts'
import { addIncidentUpdate, type FailureReason, stageIncidentEvent } from './events.ts'
import { INCIDENT_COLUMNS, type IncidentRow } from './find.ts'

export const INCIDENT_ENGINE = 'incident-engine'

const SEVERITY_RANK: Record<IncidentSeverity, number> = { low: 0, medium: 1, high: 2, critical: 3 }

/**
 * Severity rules (README "Incidents"): every location failing is critical, a quorum of them high;
 * a certificate or a domain registration 30 or 14 days from expiry is low, 7 days medium, 1 day high.
 */
export function downSeverity(locations: { failing: string[]; total: string[] }): IncidentSeverity {
  return locations.failing.length >= locations.total.length ? 'critical' : 'high'
}
export function certificateSeverity(threshold: 30 | 14 | 7 | 1): IncidentSeverity {
  return threshold === 1 ? 'high' : threshold === 7 ? 'medium' : 'low'
}

const duration = (ms: number) => {
  const seconds = Math.max(0, Math.round(ms / 1000))
  const parts = [
    [Math.floor(seconds / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'm'],
    [seconds % 60, 's'],
  ] as const
  return (
    parts
      .filter(([value]) => value > 0)
      .map(([value, unit]) => `${value}${unit}`)
      .join(' ') || '0s'
  )
}

interface Trigger {
  organizationId: string
  monitorId: string
  /** Absent for an SLO over a group: the incident is the group's. */
  monitorKind?: SubjectKind | undefined
  cause: IncidentCause
  at: Date
  title: string
  severity: IncidentSeverity
  message: string
  reason?: FailureReason
}

/**
 * Suppressions are written here, after the ingest invalidated the reads of the results that caused
 * them: the pages of the monitors whose `suppressedBy` changed are invalidated again once the
 * transaction commits, so no cached read shows them as they were.
 */
function invalidateSuppressed(
  ctx: CollectorContext,
  scope: HandlerScope,
  organizationId: string,
  monitorIds: string[],
) {
  if (monitorIds.length === 0) return
  scope.afterCommit.push(() => invalidateIngestedReads({ ctx, organizationIds: [organizationId], monitorIds }))
}

async function latestIncident(tx: Sql, monitorId: string, cause: IncidentCause) {
  const { rows } = await tx.query<IncidentRow>(
    `SELECT ${INCIDENT_COLUMNS} FROM monitoring.incidents WHERE monitor_id = $1 AND cause = $2
      ORDER BY detected_at DESC, id DESC LIMIT 1 FOR UPDATE`,
    [monitorId, cause],
  )
  return rows[0]
}

/**
 * One incident per monitor and cause: a trigger while one is open adds an update (raising the
 * severity, never lowering it); a `down` within the flapping window of an automatic resolution
 * reopens that incident instead of opening another; otherwise a new incident opens. Nothing opens
 * inside a maintenance window. A resolution by hand counts as final until the next trigger. A monitor
 * going down while one it depends on is down opens nothing: its failure is recorded as suppressed,
 * under the parent's incident (README "Dependencies").
 */
async function openOrUpdate(ctx: CollectorContext, scope: HandlerScope, trigger: Trigger): Promise<void> {
  const { tx } = scope
  if (await isUnderMaintenance(tx, trigger.organizationId, trigger.monitorId, trigger.at.getTime())) return
  if (trigger.cause === 'down' && trigger.monitorKind !== 'device' && (await suppressFailure(tx, trigger))) {
    invalidateSuppressed(ctx, scope, trigger.organizationId, [trigger.monitorId])
    return
  }
  const latest = await latestIncident(tx, trigger.monitorId, trigger.cause)
  const stage = async (type: 'incident.opened' | 'incident.updated', row: IncidentRow, reopened = false) => {
    await addIncidentUpdate(tx, row, {
      message: trigger.message,
      status: row.status,
      automatic: true,
      author: null,
      at: trigger.at,
      reason: trigger.reason,
    })
    scope.staged.push(
      ...(await stageIncidentEvent(tx, type, row, {
        message: trigger.message,
        automatic: true,
        at: trigger.at,
        reopened,
      })),
    )
  }
  if (latest && latest.resolved_at === null) {
    const severity =
      SEVERITY_RANK[trigger.severity] > SEVERITY_RANK[latest.severity] ? trigger.severity : latest.severity
    const { rows } = await tx.query<IncidentRow>(
      `UPDATE monitoring.incidents SET severity = $2, updated_at = now() WHERE id = $1 RETURNING ${INCIDENT_COLUMNS}`,
      [latest.id, severity],
    )
    await stage('incident.updated', rows[0]!)
    return
  }
  const flapWindowMs = ctx.env.GUARD_INCIDENT_FLAP_WINDOW_SECONDS * 1000
  if (
    latest?.resolved_at &&
    latest.resolved_by === null &&
    trigger.cause === 'down' &&
    trigger.at.getTime() - new Date(latest.resolved_at).getTime() <= flapWindowMs
  ) {
    const { rows } = await tx.query<IncidentRow>(
      `UPDATE monitoring.incidents
          SET status = 'open', resolved_at = NULL, resolved_by = NULL, flap_count = flap_count + 1, updated_at = now()
        WHERE id = $1 RETURNING ${INCIDENT_COLUMNS}`,
      [latest.id],
    )
    const row = rows[0]!
    trigger.message = `Down again ${duration(trigger.at.getTime() - new Date(latest.resolved_at).getTime())} after recovering (flapping, reopened ${row.flap_count}×): ${trigger.message}`
    invalidateSuppressed(ctx, scope, trigger.organizationId, await linkSuppressedTo(tx, trigger.monitorId, row.id))
    await stage('incident.updated', row, true)
    return
  }
  const { rows } = await tx.query<IncidentRow>(
    `INSERT INTO monitoring.incidents (id, organization_id, title, description, status, severity, impact, cause,
       monitor_id, monitor_kind, affected_services, affected_domains, affected_devices, detected_at)
     VALUES ($1, $2, $3, $4, 'open', $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING ${INCIDENT_COLUMNS}`,
    [
      newId(),
      trigger.organizationId,
      trigger.title,
      trigger.message,
      trigger.severity,
      trigger.cause === 'certificate' || trigger.cause === 'registration' ? 'none' : 'major',
      trigger.cause,
      trigger.monitorId,
      trigger.monitorKind,
      trigger.monitorKind === 'service' ? [trigger.monitorId] : [],
      trigger.monitorKind === 'domain' ? [trigger.monitorId] : [],
      trigger.monitorKind === 'device' ? [trigger.monitorId] : [],
      trigger.at,
    ],
  )
  if (trigger.cause === 'down') {
    invalidateSuppressed(ctx, scope, trigger.organizationId, await linkSuppressedTo(tx, trigger.monitorId, rows[0]!.id))
  }
  await stage('incident.opened', rows[0]!)
}

/** Resolves the open incident of that monitor and cause, with an automatic update; none open: nothing. */
async function resolveAutomatically(
  scope: HandlerScope,
  recovery: { monitorId: string; cause: IncidentCause; at: Date; message: (row: IncidentRow) => string },
): Promise<void> {
  const { tx } = scope
  const { rows } = await tx.query<IncidentRow>(
    `UPDATE monitoring.incidents SET status = 'resolved', resolved_at = $3, resolved_by = NULL, updated_at = now()
      WHERE monitor_id = $1 AND cause = $2 AND resolved_at IS NULL RETURNING ${INCIDENT_COLUMNS}`,
    [recovery.monitorId, recovery.cause, recovery.at],
  )
  for (const row of rows) {
    const message = recovery.message(row)
    await addIncidentUpdate(tx, row, { message, status: 'resolved', automatic: true, author: null, at: recovery.at })
    scope.staged.push(
      ...(await stageIncidentEvent(tx, 'incident.resolved', row, { message, automatic: true, at: recovery.at })),
    )
  }
}

const describeFailure = (data: EventOf<'monitor.down'>['data']) => {
  const where = `${data.locations.failing.join(', ')} (${data.locations.failing.length} of ${data.locations.total.length} locations)`
  const what = [data.errorKind, data.errorMessage ?? (data.statusCode ? `HTTP ${data.statusCode}` : undefined)]
    .filter(Boolean)
    .join(': ')
  return `Down from ${where}${what ? `: ${what}` : ''}`
}

/** The incident engine: opens, updates and resolves incidents from the platform's events. */
export function incidentEngineHandlers(ctx: CollectorContext): EventHandlers {
  return {
    'monitor.down': (event, scope) =>
      openOrUpdate(ctx, scope, {
        organizationId: event.organizationId,
        monitorId: event.data.monitorId,
        monitorKind: event.data.monitorKind,
        cause: 'down',
        at: new Date(event.occurredAt),
        title: `${event.data.monitorName} is down`,
        severity: downSeverity(event.data.locations),
        message: describeFailure(event.data),
        reason: { errorKind: event.data.errorKind, statusCode: event.data.statusCode },
      }),
    'monitor.up': async (event, scope) => {
      if (await endSuppression(scope.tx, event.data.monitorId, new Date(event.occurredAt))) {
        invalidateSuppressed(ctx, scope, event.organizationId, [event.data.monitorId])
      }
      await resolveAutomatically(scope, {
        monitorId: event.data.monitorId,
        cause: 'down',
        at: new Date(event.occurredAt),
        message: (row) =>
          `Recovered after ${duration(Date.parse(event.occurredAt) - new Date(row.detected_at).getTime())}: up from ${event.data.locations.total.length - event.data.locations.failing.length} of ${event.data.locations.total.length} locations`,
      })
    },
    'certificate.expiring': (event, scope) =>
      openOrUpdate(ctx, scope, {
        organizationId: event.organizationId,
        monitorId: event.data.monitorId,
        monitorKind: event.data.monitorKind,
        cause: 'certificate',
        at: new Date(event.occurredAt),
        title: `Certificate of ${event.data.monitorName} expires in ${event.data.daysLeft} days`,
        severity: certificateSeverity(event.data.threshold),
        message: `The certificate issued by ${event.data.issuer} expires on ${event.data.expiresAt} (${event.data.daysLeft} days left)`,
      }),
    'domain.expiring': (event, scope) =>
      openOrUpdate(ctx, scope, {
        organizationId: event.organizationId,
        monitorId: event.data.monitorId,
        monitorKind: event.data.monitorKind,
        cause: 'registration',
        at: new Date(event.occurredAt),
        title: `Registration of ${event.data.domain} expires in ${event.data.daysLeft} days`,
        severity: certificateSeverity(event.data.threshold),
        message: `The registration of ${event.data.domain}${event.data.registrar ? ` (registrar ${event.data.registrar})` : ''} expires on ${event.data.expiresAt} (${event.data.daysLeft} days left)`,
      }),
    'domain.renewed': (event, scope) =>
      resolveAutomatically(scope, {
        monitorId: event.data.monitorId,
        cause: 'registration',
        at: new Date(event.occurredAt),
        message: () => `Registration of ${event.data.domain} renewed: it now expires on ${event.data.expiresAt}`,
      }),
    'device.offline': (event, scope) =>
      deviceTrouble(ctx, scope, {
        organizationId: event.organizationId,
        deviceId: event.data.deviceId,
        deviceName: event.data.deviceName,
        cause: 'device-offline',
        severity: 'high',
        at: event.occurredAt,
        message: `No heartbeat for ${event.data.offlineAfterSeconds} s (last seen ${event.data.lastSeen ?? 'never'})`,
      }),
    'device.online': (event, scope) =>
      deviceRecovered(scope, {
        deviceId: event.data.deviceId,
        cause: 'device-offline',
        at: event.occurredAt,
        message: 'Heartbeats again',
      }),
    'device.health': (event, scope) =>
      event.data.current === 'healthy'
        ? deviceRecovered(scope, {
            deviceId: event.data.deviceId,
            cause: 'device-health',
            at: event.occurredAt,
            message: 'Healthy again',
          })
        : deviceTrouble(ctx, scope, {
            organizationId: event.organizationId,
            deviceId: event.data.deviceId,
            deviceName: event.data.deviceName,
            cause: 'device-health',
            severity: event.data.current === 'critical' ? 'high' : 'medium',
            at: event.occurredAt,
            message:
              event.data.reasons.map((r) => `${r.metric} ${r.value} over ${r.threshold} (${r.level})`).join('; ') ||
              `Health ${event.data.current}`,
          }),
    'slo.burning': (event, scope) =>
      openOrUpdate(ctx, scope, {
        organizationId: event.organizationId,
        monitorId: event.data.subject.id,
        monitorKind: event.data.monitorKind,
        cause: 'slo',
        at: new Date(event.occurredAt),
        title: `SLO ${event.data.sloName} is burning its error budget`,
        severity: event.data.severity,
        message: `${event.data.subject.name}: burn rate ${event.data.longBurnRate} over ${event.data.longWindowMinutes} min and ${event.data.shortBurnRate} over ${event.data.shortWindowMinutes} min, at or above ${event.data.threshold} (${event.data.budgetPercent} % of the budget in ${event.data.longWindowMinutes} min); ${event.data.remainingPercent} % of the budget left`,
      }),
    'slo.recovered': (event, scope) =>
      resolveAutomatically(scope, {
        monitorId: event.data.subject.id,
        cause: 'slo',
        at: new Date(event.occurredAt),
        message: () =>
          `SLO ${event.data.sloName} burns below its alert thresholds again; ${event.data.remainingPercent} % of the budget left`,
      }),
    'certificate.renewed': (event, scope) =>
      resolveAutomatically(scope, {
        monitorId: event.data.monitorId,
        cause: 'certificate',
        at: new Date(event.occurredAt),
        message: () => `Certificate renewed: the one now served expires on ${event.data.expiresAt}`,
      }),
  }
}

/**
 * Device events open and resolve incidents like monitors do, with `monitorKind: 'device'`:
 * offline is high, health critical high, warning medium; online and healthy resolve them.
 */
export const deviceTrouble = (
  ctx: CollectorContext,
  scope: HandlerScope,
  trouble: {
    organizationId: string
    deviceId: string
    deviceName: string
    cause: 'device-offline' | 'device-health'
    severity: IncidentSeverity
    at: string
    message: string
  },
) =>
  openOrUpdate(ctx, scope, {
    organizationId: trouble.organizationId,
    monitorId: trouble.deviceId,
    monitorKind: 'device',
    cause: trouble.cause,
    at: new Date(trouble.at),
    title:
      trouble.cause === 'device-offline' ? `${trouble.deviceName} is offline` : `${trouble.deviceName} is unhealthy`,
    severity: trouble.severity,
    message: trouble.message,
  })

export const deviceRecovered = (
  scope: HandlerScope,
  recovery: { deviceId: string; cause: 'device-offline' | 'device-health'; at: string; message: string },
) =>
  resolveAutomatically(scope, {
    monitorId: recovery.deviceId,
    cause: recovery.cause,
    at: new Date(recovery.at),
    message: () => recovery.message,
  })
