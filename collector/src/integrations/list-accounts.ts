import type { z } from 'zod'
import type { Caller, CollectorContext } from '../context.ts'
import { organizationScope } from '../services/access/organization.ts'
import { type AccountRecord, listAccountRecords } from './accounts.ts'
import type { ProviderId } from './provider.ts'

export async function listAccounts({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { provider: ProviderId; organization?: string | undefined }
}): Promise<AccountRecord[]> {
  return listAccountRecords(ctx.sql, organizationScope(caller, input.organization), input.provider)
}

/**
 * An account as a route shows it: the public config fields beside the masked hint, parsed through
 * the route's view schema, which keeps only the fields it names.
 */
export const accountView =
  <View extends z.ZodObject>(view: View) =>
  ({ config, ...account }: AccountRecord): z.infer<View> =>
    view.parse({ ...account, ...config })
