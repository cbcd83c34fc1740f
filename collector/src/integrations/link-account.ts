import type { Caller, CollectorContext } from '../context.ts'
import { organizationScope } from '../services/access/organization.ts'
import { type AccountRecord, insertAccount } from './accounts.ts'
import type { LinkedAccount, ProviderId, TokenGrant } from './provider.ts'
import { providers } from './registry.ts'
import { linkCloudAInput, linkSelfhostBInput } from './schemas.ts'
import type { Secrets } from './secrets.ts'
import { providerApi } from './session.ts'

/** Who links, into which organization; the principal is recorded as the account's creator. */
export interface LinkTarget {
  organizationId: string
  createdBy: string
}

export const principalOf = (caller: Caller) => `${caller.principal.kind}:${caller.principal.id}`

/**
 * Verifies credentials against the platform (a token, then a read of what they name) and only
 * then stores them, sealed. Any refusal leaves nothing behind.
 */
export async function verifyAndStore(
  ctx: CollectorContext,
  provider: ProviderId,
  target: LinkTarget,
  draft: { name: string; config: Record<string, string>; secrets: Secrets; hintOf: keyof Secrets & string },
  grant?: TokenGrant,
): Promise<AccountRecord> {
  const account: LinkedAccount = {
    id: 'unsaved',
    organizationId: target.organizationId,
    provider,
    name: draft.name,
    config: draft.config,
    secrets: draft.secrets,
    accessToken: grant ? { value: grant.accessToken, expiresAt: grant.expiresAt } : undefined,
    tokenVersion: 0,
  }
  const api = providerApi(ctx, providers[provider], account, { persist: false, linking: true })
  const described = await providers[provider].describe(api, { env: ctx.env }, account)
  const stored = await insertAccount(ctx, {
    organizationId: target.organizationId,
    provider,
    name: described.name,
    externalKey: described.externalKey,
    config: described.config,
    secrets: account.secrets,
    hintOf: account.secrets[draft.hintOf]!,
    grant: api.lastGrant() ?? grant,
    createdBy: target.createdBy,
  })
  ctx.log.info(
    { provider, accountId: stored.id, organizationId: target.organizationId, by: target.createdBy },
    'integration linked',
  )
  return stored
}

export async function linkCloudAAccount({
  ctx,
  caller,
  input,
  organization,
}: {
  ctx: CollectorContext
  caller: Caller
  input: unknown
  organization?: string | undefined
}): Promise<AccountRecord> {
  const { clientSecret, ...config } = linkCloudAInput.parse(input)
  const target = { organizationId: organizationScope(caller, organization), createdBy: principalOf(caller) }
  return verifyAndStore(ctx, 'cloud-a', target, {
    name: config.subscriptionId,
    config,
    secrets: { clientSecret },
    hintOf: 'clientSecret',
  })
}

export async function linkSelfhostBInstance({
  ctx,
  caller,
  input,
  organization,
}: {
  ctx: CollectorContext
  caller: Caller
  input: unknown
  organization?: string | undefined
}): Promise<AccountRecord> {
  const { name, url, apiKey } = linkSelfhostBInput.parse(input)
  const target = { organizationId: organizationScope(caller, organization), createdBy: principalOf(caller) }
  return verifyAndStore(ctx, 'selfhost-b', target, { name, config: { url }, secrets: { apiKey }, hintOf: 'apiKey' })
}
