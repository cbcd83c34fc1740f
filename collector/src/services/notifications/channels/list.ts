import type { Caller, CollectorContext } from '../../../context.ts'
import { organizationScope } from '../../access/organization.ts'
import type { ChannelRow } from './config.ts'
import { CHANNEL_COLUMNS, toChannelView } from './find.ts'

/** The organization's channels, oldest first, each with its last delivery state. */
export async function listChannels({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { organizationId?: string | undefined }
}) {
  const organizationId = organizationScope(caller, input.organizationId)
  const { rows } = await ctx.sql.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM monitoring.notification_channels WHERE organization_id = $1 ORDER BY created_at, id`,
    [organizationId],
  )
  return rows.map((row) => toChannelView(ctx, row))
}
