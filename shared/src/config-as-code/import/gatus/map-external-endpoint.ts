import { parseDuration } from '../../../conditions/duration.ts'
import type { DocumentEntry } from '../import-result.ts'
import { gatusExternalEndpoint } from './gatus-schema.ts'
import type { EndpointContext, MappedEndpoint } from './map-endpoint.ts'
import { mapEndpointAlerts } from './map-endpoint-alerts.ts'
import { mapMaintenanceWindow } from './map-maintenance.ts'

const KNOWN_KEYS = ['enabled', 'name', 'group', 'token', 'alerts', 'maintenance-windows', 'heartbeat']

/**
 * An external endpoint (its status pushed to Gatus) → a heartbeat: down when no ping came within
 * `heartbeat.interval`, as Gatus marks it. Without an interval Gatus never expects a push, and a
 * Guard heartbeat always does, so it is not carried.
 */
export function mapExternalEndpoint(
  raw: unknown,
  index: number,
  context: EndpointContext,
): MappedEndpoint & { heartbeat?: DocumentEntry } {
  const source = context.sourceOf(raw)
  const parsed = gatusExternalEndpoint.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    context.unmapped.push({
      source,
      item: `external-endpoints[${index}]`,
      reason: `not an external endpoint: ${issue?.path.join('.')} ${issue?.message}`,
    })
    return { maintenance: [] }
  }
  const external = parsed.data
  const at = { source, item: `external-endpoints["${external.name}"]` }
  const intervalMs = external.heartbeat?.interval === undefined ? undefined : parseDuration(external.heartbeat.interval)
  if (intervalMs === undefined || intervalMs <= 0) {
    context.unmapped.push({
      source,
      item: at.item,
      reason:
        'no heartbeat.interval: a Guard heartbeat expects a ping on a schedule; give it one (every) to carry this endpoint',
    })
    return { maintenance: [] }
  }
  const id = context.allocateMonitorId(external.name, `${external.group ?? ''}-${external.name}`)
  const every = Math.min(Math.max(Math.round(intervalMs / 1000), 5), 31_536_000)
  context.unmapped.push({
    source,
    item: `${at.item}.token`,
    reason:
      'Guard gives the heartbeat its own ping URL (GET /ping/<token>, /fail on failure); point the job that pushed to Gatus at it',
  })
  const alerts = mapEndpointAlerts(external.alerts, at, context.alerting, context.unmapped)
  if (alerts.failureThreshold !== undefined && alerts.failureThreshold > 1) {
    context.unmapped.push({
      source,
      item: `${at.item}.alerts`,
      reason: `a heartbeat goes down on the first missed or failed run; Guard has no failure threshold for heartbeats (${alerts.failureThreshold} in Gatus)`,
    })
  }
  for (const key of Object.keys(external)) {
    if (!KNOWN_KEYS.includes(key))
      context.unmapped.push({ source, item: `${at.item}.${key}`, reason: "not an option of Guard's heartbeats" })
  }
  const heartbeat: DocumentEntry = {
    id,
    name: external.name,
    every,
    // Gatus marks the endpoint down as soon as the interval passes without a push.
    grace: 0,
    ...(external.enabled === false ? { enabled: false } : {}),
    ...(external.group ? { group: context.groupIdOf(external.group) } : {}),
    ...(alerts.channels ? { channels: alerts.channels } : {}),
  }
  const maintenance = external['maintenance-windows'].flatMap((window, windowIndex) =>
    mapMaintenanceWindow(
      window,
      {
        source,
        item: `${at.item}.maintenance-windows[${windowIndex}]`,
        title: `${external.name} maintenance`,
        idBase: `${id}-maintenance`,
        monitors: [id],
      },
      context.maintenance,
    ),
  )
  return { heartbeat, maintenance }
}
