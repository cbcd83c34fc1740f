import type { ProbeHeartbeat } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../../context.ts'

export const probeView = z.object({
  id: z.string(),
  version: z.string(),
  lastHeartbeat: z.string(),
  online: z.boolean(),
  scheduleLagP99Ms: z.number(),
  outboxDepth: z.number().int(),
  checksPerSecond: z.number(),
  monitors: z.number().int(),
  /** Runs browser checks: only such probes are given browser monitors. */
  browser: z.boolean(),
})

export const locationView = z
  .object({
    code: z.string(),
    online: z.boolean(),
    /** Whether the location comes from configuration (GUARD_LOCATIONS, GUARD_DEFAULT_LOCATIONS). */
    configured: z.boolean(),
    probes: z.array(probeView),
  })
  .meta({
    examples: [
      {
        code: 'fra',
        online: true,
        configured: false,
        probes: [
          {
            id: 'fra-1',
            version: '0.1.0',
            lastHeartbeat: '2026-01-01T00:00:00.000Z',
            online: true,
            scheduleLagP99Ms: 12,
            outboxDepth: 0,
            checksPerSecond: 3.5,
            monitors: 120,
            browser: false,
          },
        ],
      },
    ],
  })
export type LocationView = z.infer<typeof locationView>

interface ProbeRow {
  location: string
  instance: string
  version: string
  last_heartbeat_at: Date
  heartbeat: ProbeHeartbeat
}

/**
 * Every known location with its probes. A probe is online while its newest heartbeat is younger
 * than GUARD_PROBE_OFFLINE_AFTER_SECONDS; a location is online while one of its probes is.
 * Probes are platform infrastructure, shared by every organization, and carry no tenant data.
 */
export async function listLocations({ ctx }: { ctx: CollectorContext }): Promise<LocationView[]> {
  const { rows } = await ctx.sql.query<ProbeRow>(
    'SELECT location, instance, version, last_heartbeat_at, heartbeat FROM monitoring.probes ORDER BY location, instance',
  )
  const offlineBefore = Date.now() - ctx.env.GUARD_PROBE_OFFLINE_AFTER_SECONDS * 1000
  const configured = new Set([...ctx.env.GUARD_LOCATIONS, ...ctx.env.GUARD_DEFAULT_LOCATIONS.filter((c) => c !== '*')])
  const byCode = new Map<string, LocationView>()
  for (const code of configured) byCode.set(code, { code, online: false, configured: true, probes: [] })
  for (const row of rows) {
    const location = byCode.get(row.location) ?? {
      code: row.location,
      online: false,
      configured: false,
      probes: [],
    }
    const online = new Date(row.last_heartbeat_at).getTime() >= offlineBefore
    location.probes.push({
      id: row.instance,
      version: row.version,
      lastHeartbeat: new Date(row.last_heartbeat_at).toISOString(),
      online,
      scheduleLagP99Ms: row.heartbeat.scheduleLagP99Ms,
      outboxDepth: row.heartbeat.outboxDepth,
      checksPerSecond: row.heartbeat.checksPerSecond,
      monitors: row.heartbeat.monitors,
      browser: row.heartbeat.browser ?? false,
    })
    location.online ||= online
    byCode.set(row.location, location)
  }
  return [...byCode.values()].sort((a, b) => a.code.localeCompare(b.code))
}
