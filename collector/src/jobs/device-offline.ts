import cron from 'node-cron'
import type { CollectorContext } from '../context.ts'
import { detectOfflineDevices } from '../services/devices/detect-offline.ts'
import { publishDeviceEvents } from '../services/devices/outbox.ts'
import { postgresRunCoordinator } from './run-coordinator.ts'

/**
 * Every tick of GUARD_DEVICE_OFFLINE_CRON, one replica takes silent devices offline and publishes
 * the events still waiting in the outbox (those a crash or a bus outage left behind). Devices get
 * one offline limit after this replica starts before they count as offline (see detectOfflineDevices).
 */
export function scheduleDeviceOfflineJob(ctx: CollectorContext) {
  const startedAt = new Date()
  const task = cron.schedule(
    ctx.env.GUARD_DEVICE_OFFLINE_CRON,
    async () => {
      try {
        const offline = await detectOfflineDevices(ctx, new Date(), startedAt)
        if (offline.length > 0)
          ctx.log.info({ devices: offline.map((event) => event.data.deviceId) }, 'devices went offline')
        await publishDeviceEvents(ctx)
      } catch (error) {
        ctx.log.error({ err: error }, 'device offline job failed; the next tick retries')
      }
    },
    {
      name: 'device-offline',
      noOverlap: true,
      distributed: true,
      runCoordinator: postgresRunCoordinator(ctx.sql, ctx.log),
      distributedLease: 60_000,
      suppressMissedWarning: true,
    },
  )
  return {
    async stop() {
      await task.destroy()
    },
  }
}
