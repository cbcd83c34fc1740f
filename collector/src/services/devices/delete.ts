import type { Caller, CollectorContext } from '../../context.ts'
import { recordChange } from '../activity/record-change.ts'
import { findDevice } from './find.ts'

/**
 * Removes the device and its snapshot; its token stops working at once. Its metrics stay in
 * ClickHouse until retention drops them, unreachable since every read goes through the device row.
 */
export async function deleteDevice(ctx: CollectorContext, caller: Caller, id: string): Promise<void> {
  const device = await findDevice(ctx.sql, caller, id)
  await ctx.sql.transaction(async (tx) => {
    await tx.query('DELETE FROM monitoring.devices WHERE id = $1 AND organization_id = $2', [
      id,
      device.organization_id,
    ])
    await recordChange(tx, {
      organizationId: device.organization_id,
      kind: 'device',
      action: 'deleted',
      id,
      name: device.name,
    })
  })
}
