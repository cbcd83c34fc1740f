import type { z } from 'zod'
import type { Caller, CollectorContext } from '../context.ts'
import { organizationScope } from '../services/access/organization.ts'
import { type AccountRecord, listAccountRecords, monitorLinks } from './accounts.ts'
import { existingMonitors } from './monitor-adapter.ts'
import type { ProviderId } from './provider.ts'
import { providers } from './registry.ts'

export async function listAccounts({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { provider: ProviderId; organization?: string | undefined }
}): Promise<Array<AccountRecord & { monitors: number }>> {
  const organizationId = organizationScope(caller, input.organization)
  const accounts = await listAccountRecords(ctx.sql, organizationId, input.provider)
  const links = await monitorLinks(
    ctx.sql,
    accounts.map((account) => account.id),
  )
  const live = await existingMonitors(
    ctx.sql,
    organizationId,
    links.map((link) => link.monitor),
  )
  return accounts.map((account) => ({
    ...account,
    monitors: links.filter((link) => link.accountId === account.id && live.has(link.monitor.id)).length,
  }))
}

/**
 * An account as a route shows it: the public config fields beside the masked hint, parsed through
 * the route's view schema, which keeps only the fields it names.
 */
export const accountView =
  <View extends z.ZodObject>(view: View) =>
  ({ config, ...account }: AccountRecord & { monitors?: number }): z.infer<View> =>
    view.parse({ monitors: 0, ...account, ...config, platformName: providers[account.provider].product.name })
