import type { Caller, CollectorContext } from '../context.ts'
import { deleteAccountRow } from './accounts.ts'
import { principalOf } from './link-account.ts'
import type { ProviderId } from './provider.ts'

/** Forgets the link and its sealed secrets; monitors created from it keep running as ordinary monitors. */
export async function deleteAccount({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { provider: ProviderId; id: string }
}): Promise<void> {
  await deleteAccountRow(ctx.sql, caller, input.provider, input.id)
  ctx.log.info({ provider: input.provider, accountId: input.id, by: principalOf(caller) }, 'integration unlinked')
}
