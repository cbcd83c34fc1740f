import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { covers, scopeToPermission } from '../access/permissions.ts'
import { createApiKey } from './create.ts'
import type { CreateApiKeyInput } from './schemas.ts'

/**
 * Creates a key for the signed-in user's organization. A key can hold only permissions the user
 * holds, so a key never grants more than its creator could do.
 */
export async function issueApiKey(ctx: CollectorContext, caller: Caller, input: CreateApiKeyInput) {
  const permissions = [...new Set([...(input.permissions ?? []), ...(input.scopes ?? []).map(scopeToPermission)])]
  const beyond = permissions.filter((permission) => !covers(caller.permissions, permission))
  if (beyond.length > 0) {
    throw new GuardError('FORBIDDEN', `You cannot grant permissions you do not hold: ${beyond.join(', ')}`)
  }
  const created = await createApiKey(ctx.sql, {
    organizationId: caller.organizationId,
    name: input.name,
    permissions,
    expiresAt: input.expires_at,
    createdBy: caller.principal.id,
  })
  return {
    id: created.id,
    name: created.name,
    key: created.key,
    prefix: created.prefix,
    permissions: created.permissions,
    created_at: created.createdAt,
    expires_at: created.expiresAt,
    last_used_at: null,
  }
}
