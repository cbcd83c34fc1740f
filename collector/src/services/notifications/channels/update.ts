import type { Caller, CollectorContext } from '../../../context.ts'
import { type ChannelRow, openChannelSecrets, sealChannelConfig, validateChannelConfig } from './config.ts'
import { nameTaken } from './create.ts'
import { CHANNEL_COLUMNS, findChannel, toChannelView } from './find.ts'
import { type ChannelView, type UpdateChannelInput, updateChannelInput } from './schemas.ts'

/** Changes a channel; new settings replace the old, except secret fields left out, which are kept. */
export async function updateChannel({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: UpdateChannelInput & { id: string }
}): Promise<ChannelView> {
  const { id, ...fields } = input
  const changes = updateChannelInput.parse(fields)
  const current = await findChannel(ctx.sql, caller.organizationIds, id)
  const sealed = changes.config
    ? sealChannelConfig(
        ctx,
        current.provider,
        await validateChannelConfig(ctx, current.provider, { ...openChannelSecrets(ctx, current), ...changes.config }),
      )
    : { config: current.config, secretsSealed: current.secrets_sealed }
  const { rows } = await ctx.sql
    .query<ChannelRow>(
      `UPDATE monitoring.notification_channels
          SET name = $3, config = $4, secrets_sealed = $5, enabled = $6, quiet_hours = $7, updated_at = now(),
              state = CASE WHEN $8 THEN 'ok' ELSE state END, state_reason = CASE WHEN $8 THEN NULL ELSE state_reason END
        WHERE id = $1 AND organization_id = $2 RETURNING ${CHANNEL_COLUMNS}`,
      [
        current.id,
        current.organization_id,
        changes.name ?? current.name,
        JSON.stringify(sealed.config),
        sealed.secretsSealed,
        changes.enabled ?? current.enabled,
        changes.quietHours === undefined
          ? current.quiet_hours && JSON.stringify(current.quiet_hours)
          : changes.quietHours && JSON.stringify(changes.quietHours),
        // New settings deserve a new chance: the failing mark was about the old ones.
        changes.config !== undefined,
      ],
    )
    .catch((error: unknown) => {
      throw nameTaken(error)
    })
  return toChannelView(ctx, rows[0]!)
}
