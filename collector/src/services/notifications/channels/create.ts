import { GuardError, newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'
import { organizationScope } from '../../access/organization.ts'
import { authorOf } from '../../incidents/find.ts'
import { providerOf } from '../providers/index.ts'
import { addToDefaultRoute } from '../routing/default-route.ts'
import { type ChannelRow, sealChannelConfig, validateChannelConfig } from './config.ts'
import { CHANNEL_COLUMNS, toChannelView } from './find.ts'
import { type ChannelView, type CreateChannelInput, createChannelInput } from './schemas.ts'

export const nameTaken = (error: unknown) =>
  (error as { code?: string }).code === '23505'
    ? new GuardError('CONFLICT', 'The organization already has a channel with that name')
    : error

/**
 * Creates an organization channel. Secrets the provider generates (a webhook signing secret) and
 * the caller left out are made here and shown in this response only.
 */
export async function createChannel({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: CreateChannelInput & { organizationId?: string | undefined }
}): Promise<ChannelView> {
  const { organizationId: requested, ...fields } = input
  const parsed = createChannelInput.parse(fields)
  const organizationId = organizationScope(caller, requested)
  const provider = providerOf(parsed.provider)
  const generated = Object.fromEntries(
    Object.entries(provider.generateSecrets?.() ?? {}).filter(([field]) => parsed.config[field] === undefined),
  ) as Record<string, string>
  const config = await validateChannelConfig(ctx, parsed.provider, { ...parsed.config, ...generated })
  const sealed = sealChannelConfig(ctx, parsed.provider, config)
  const row = await ctx.sql
    .transaction(async (tx) => {
      const { rows } = await tx.query<ChannelRow>(
        `INSERT INTO monitoring.notification_channels
           (id, organization_id, name, provider, config, secrets_sealed, enabled, quiet_hours, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${CHANNEL_COLUMNS}`,
        [
          newId(),
          organizationId,
          parsed.name,
          parsed.provider,
          JSON.stringify(sealed.config),
          sealed.secretsSealed,
          parsed.enabled,
          parsed.quietHours ? JSON.stringify(parsed.quietHours) : null,
          authorOf(caller),
        ],
      )
      if (parsed.addToDefaultRoute) await addToDefaultRoute(tx, organizationId, rows[0]!.id)
      return rows[0]!
    })
    .catch((error: unknown) => {
      throw nameTaken(error)
    })
  return toChannelView(ctx, row, generated)
}
