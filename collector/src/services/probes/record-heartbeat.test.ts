import type { ProbeHeartbeat } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorForTest } from '../../test-support.ts'
import { listLocations } from './list-locations.ts'
import { recordHeartbeat } from './record-heartbeat.ts'

const heartbeat = (location: string, instance: string, at: Date, extra: Partial<ProbeHeartbeat> = {}) => ({
  v: 1 as const,
  location,
  instance,
  version: '1.0.0',
  at: at.toISOString(),
  monitors: 3,
  inFlight: 0,
  checksPerSecond: 1.5,
  scheduleLagP50Ms: 2,
  scheduleLagP99Ms: 9,
  outboxDepth: 4,
  outboxBytes: 100,
  outboxDropped: 0,
  ...extra,
})

describe('probe heartbeats', () => {
  let harness: Awaited<ReturnType<typeof collectorForTest>>
  beforeAll(async () => {
    harness = await collectorForTest({ GUARD_LOCATIONS: 'sin', GUARD_PROBE_OFFLINE_AFTER_SECONDS: '20' })
  })
  afterAll(() => harness.close())

  it('keeps the newest heartbeat per probe whatever the arrival order, and tells online from offline, and which probes run browser checks', async () => {
    const now = Date.now()
    await recordHeartbeat(
      harness.ctx.sql,
      heartbeat('fra', 'fra-1', new Date(now), { version: '1.1.0', browser: true }),
    )
    await recordHeartbeat(harness.ctx.sql, heartbeat('fra', 'fra-1', new Date(now - 5000), { version: '1.0.0' }))
    await recordHeartbeat(harness.ctx.sql, heartbeat('iad', 'iad-1', new Date(now - 60_000)))
    const locations = await listLocations({ ctx: harness.ctx })
    expect(locations).toEqual([
      {
        code: 'fra',
        online: true,
        configured: false,
        probes: [
          {
            id: 'fra-1',
            version: '1.1.0',
            lastHeartbeat: new Date(now).toISOString(),
            online: true,
            scheduleLagP99Ms: 9,
            outboxDepth: 4,
            checksPerSecond: 1.5,
            monitors: 3,
            browser: true,
          },
        ],
      },
      {
        code: 'iad',
        online: false,
        configured: false,
        probes: [expect.objectContaining({ online: false, browser: false })],
      },
      { code: 'sin', online: false, configured: true, probes: [] },
    ])
  })

  it('forgets a probe silent for a week when a new one reports', async () => {
    await recordHeartbeat(harness.ctx.sql, heartbeat('ams', 'ams-old', new Date(Date.now() - 8 * 86_400_000)))
    await recordHeartbeat(harness.ctx.sql, heartbeat('ams', 'ams-new', new Date()))
    const ams = (await listLocations({ ctx: harness.ctx })).find((location) => location.code === 'ams')
    expect(ams?.probes.map((probe) => probe.id)).toEqual(['ams-new'])
  })
})
