import type { CollectorContext } from '../../../context.ts'
import { acknowledgeIncident } from '../../incidents/acknowledge.ts'
import { findIncident } from '../../incidents/find.ts'
import { updateIncident } from '../../incidents/update.ts'
import { providerOf } from '../providers/index.ts'
import { type ChannelRow, openChannelConfig } from './config.ts'
import { CHANNEL_COLUMNS } from './find.ts'

/**
 * A service calling back about an alert it received (PagerDuty or Opsgenie acknowledging or
 * resolving it): the channel's provider checks the call came from the service (a call it cannot
 * verify is ignored), then the incident of the dedup key, in the channel's organization only, is
 * acknowledged or resolved.
 */
export async function resolveIncidentByCallback(
  ctx: CollectorContext,
  call: { channelId: string; headers: Record<string, string | undefined>; rawBody: string },
): Promise<'unknown channel' | 'ignored' | 'acknowledged' | 'resolved'> {
  const { rows } = await ctx.sql.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM monitoring.notification_channels WHERE id = $1`,
    [call.channelId],
  )
  const channel = rows[0]
  const provider = channel ? providerOf(channel.provider) : undefined
  if (!channel || !provider?.callback) return 'unknown channel'
  const action = provider.callback({ headers: call.headers, rawBody: call.rawBody }, openChannelConfig(ctx, channel))
  if (!action) return 'ignored'
  const incidentId = action.dedupKey.startsWith('guard-') ? action.dedupKey.slice('guard-'.length) : undefined
  if (!incidentId) return 'ignored'
  const caller = {
    principal: { kind: 'user' as const, id: `${channel.provider}:${action.by}` },
    organizationId: channel.organization_id,
    organizationIds: [channel.organization_id],
    permissions: ['incidents:write'],
  }
  try {
    if (action.action === 'acknowledge')
      await acknowledgeIncident({ ctx, caller, input: { id: incidentId, by: action.by } })
    else if ((await findIncident(ctx.sql, caller, incidentId)).status !== 'resolved') {
      await updateIncident(ctx, caller, incidentId, { status: 'resolved' })
    }
  } catch {
    return 'ignored'
  }
  return action.action === 'acknowledge' ? 'acknowledged' : 'resolved'
}
