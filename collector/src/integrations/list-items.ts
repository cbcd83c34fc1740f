import type { Caller, CollectorContext } from '../context.ts'
import { monitorLinks, openAccount } from './accounts.ts'
import { existingMonitors } from './monitor-adapter.ts'
import { itemId, type LinkedAccount, type MonitorableItem, type ProviderId, type ProviderItem } from './provider.ts'
import { providers } from './registry.ts'
import { providerApi } from './session.ts'

export interface AccountItems {
  account: LinkedAccount
  items: Array<MonitorableItem & { source: ProviderItem }>
}

/** Reads what the account hosts now, each item marked with the monitor created from it, if any. */
export async function readAccountItems(
  ctx: CollectorContext,
  caller: Caller,
  provider: ProviderId,
  accountId: string,
): Promise<AccountItems> {
  const account = await openAccount(ctx, caller, provider, accountId)
  const api = providerApi(ctx, providers[provider], account, { persist: true, linking: false })
  const found = await providers[provider].listItems(api, { env: ctx.env }, account)
  const links = await monitorLinks(ctx.sql, [account.id])
  const live = await existingMonitors(
    ctx.sql,
    account.organizationId,
    links.map((link) => link.monitor),
  )
  const monitorOf = new Map(
    links.filter((link) => live.has(link.monitor.id)).map((link) => [link.itemId, link.monitor]),
  )
  const seen = new Set<string>()
  const items = found.flatMap((source) => {
    const id = itemId(source)
    // A platform listing the same resource twice (overlapping pages) shows it once.
    if (seen.has(id)) return []
    seen.add(id)
    const { externalId, name, kind, target } = source
    return [{ id, externalId, name, kind, target, monitor: monitorOf.get(id) ?? null, source }]
  })
  return { account, items }
}

export async function listAccountItems({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { provider: ProviderId; accountId: string }
}): Promise<MonitorableItem[]> {
  const { items } = await readAccountItems(ctx, caller, input.provider, input.accountId)
  return items.map(({ source: _source, ...item }) => item)
}
