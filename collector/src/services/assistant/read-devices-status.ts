import type { CollectorContext } from '../../context.ts'
import { requirePermission } from '../access/require.ts'
import { listDevices } from '../devices/list.ts'
import { assertTagsSignedIn } from '../tags/schemas.ts'
import type { Audience } from './audience.ts'
import { isWorking, readPublicView } from './public-view.ts'
import type { DevicesStatusResult } from './schemas.ts'

/**
 * The organization's devices, online or not and their health; public: the devices its public
 * status pages show.
 */
export async function readDevicesStatus({
  ctx,
  audience,
  tags = [],
}: {
  ctx: CollectorContext
  audience: Audience
  tags?: string[]
}): Promise<DevicesStatusResult> {
  assertTagsSignedIn(audience, tags)
  if (audience.kind === 'public') {
    const devices = (await readPublicView(ctx, audience.organizationId)).components
      .filter((component) => component.kind === 'device')
      .map((component) => ({
        id: null,
        name: component.name,
        status: component.status,
        healthStatus: null,
        lastSeen: null,
      }))
    const online = devices.filter((device) => isWorking(device.status)).length
    return { devices, total: devices.length, online, offline: devices.length - online }
  }
  const lists = await Promise.all(
    audience.callers.map((caller) => {
      requirePermission(caller, 'devices:read')
      return listDevices(ctx, caller, caller.organizationId, tags)
    }),
  )
  const devices = lists.flat().map((device) => ({
    id: device.id,
    name: device.name,
    status: !device.lastSeen
      ? ('unknown' as const)
      : !device.isOnline
        ? ('down' as const)
        : device.healthStatus === 'healthy'
          ? ('up' as const)
          : ('degraded' as const),
    healthStatus: device.healthStatus,
    lastSeen: device.lastSeen,
  }))
  const online = lists.flat().filter((device) => device.isOnline).length
  return { devices, total: devices.length, online, offline: devices.length - online }
}
