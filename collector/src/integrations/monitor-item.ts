import { GuardError, notFound, truncateText } from '@guard/shared'
import type { Caller, CollectorContext } from '../context.ts'
import { readAccountItems } from './list-items.ts'
import { type CreatedMonitor, createMonitorFor } from './monitor-adapter.ts'
import type { MonitorableItem, ProviderId } from './provider.ts'
import { monitorItemInput } from './schemas.ts'

/**
 * Creates the domain (web endpoints) or tcp service (hosts, databases) matching one item the
 * account lists now. An item already monitored is a 409 naming its monitor; once that monitor is
 * deleted, the item can be monitored again.
 */
export async function monitorItem({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { provider: ProviderId; accountId: string; itemId: string; settings?: unknown }
}): Promise<{ item: MonitorableItem; monitor: CreatedMonitor }> {
  const settings = monitorItemInput.parse(input.settings) ?? {}
  const { account, items } = await readAccountItems(ctx, caller, input.provider, input.accountId)
  const found = items.find((item) => item.id === input.itemId)
  if (!found) throw notFound(`Item ${input.itemId} of this ${input.provider} account`)
  if (found.monitor) {
    throw new GuardError('CONFLICT', `This item is already monitored as ${found.monitor.type} ${found.monitor.id}`)
  }
  const monitor = await createMonitorFor(ctx, caller, account.organizationId, found.target, {
    name: settings.name ?? truncateText(found.name, 200),
    checkInterval: settings.checkInterval,
    timeout: settings.timeout,
  })
  await ctx.sql.query(
    `INSERT INTO monitoring.integration_monitors (account_id, item_id, monitor_type, monitor_id)
     VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, item_id) DO UPDATE SET monitor_type = $3, monitor_id = $4, created_at = now()`,
    [account.id, found.id, monitor.type, monitor.id],
  )
  const { source: _source, ...item } = found
  return { item: { ...item, monitor: { type: monitor.type, id: monitor.id } }, monitor }
}
