import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { covers, scopeToPermission } from '../access/permissions.ts'
import { createApiKey } from './create.ts'
import type { ApiKeyView, CreateApiKeyInput } from './schemas.ts'

/**
 * Creates a key for the signed-in user's organization. A key can hold only permissions the user
 * holds, so a key never grants more than its creator could do; a key that belongs to the
 * organization outlives its creator's membership, so only an owner may create one.
 */
export async function issueApiKey({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: CreateApiKeyInput
}): Promise<ApiKeyView & { key: string }> {
  const permissions = [...new Set([...(input.permissions ?? []), ...(input.scopes ?? []).map(scopeToPermission)])]
  const beyond = permissions.filter((permission) => !covers(caller.permissions, permission))
  if (beyond.length > 0) {
    throw new GuardError('FORBIDDEN', `You cannot grant permissions you do not hold: ${beyond.join(', ')}`)
  }
  if (input.belongs_to === 'organization' && caller.role !== 'owner') {
    throw new GuardError('FORBIDDEN', 'Only an owner of the organization may create a key that belongs to it')
  }
  const created = await createApiKey(ctx.sql, {
    organizationId: caller.organizationId,
    name: input.name,
    permissions,
    expiresAt: input.expires_at,
    createdBy: caller.principal.id,
    belongsTo: input.belongs_to,
  })
  return {
    id: created.id,
    name: created.name,
    key: created.key,
    prefix: created.prefix,
    permissions: created.permissions,
    belongs_to: created.belongsTo,
    created_by: created.createdBy,
    created_at: created.createdAt,
    expires_at: created.expiresAt,
    last_used_at: null,
  }
}
