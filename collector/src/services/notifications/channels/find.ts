import { GuardError, type Sql } from '@guard/shared'
import type { CollectorContext } from '../../../context.ts'
import { type ChannelRow, openChannelSecrets } from './config.ts'
import type { ChannelView } from './schemas.ts'

export const CHANNEL_COLUMNS = `id, organization_id, name, provider, config, secrets_sealed, enabled, quiet_hours, state,
  state_reason, last_delivery_at, last_delivery_status, created_at, updated_at`

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null)

export function toChannelView(
  ctx: CollectorContext,
  row: ChannelRow,
  generatedSecrets?: Record<string, string>,
): ChannelView {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    provider: row.provider,
    config: row.config,
    secretsSet: Object.keys(openChannelSecrets(ctx, row)).sort(),
    ...(generatedSecrets && Object.keys(generatedSecrets).length > 0 ? { generatedSecrets } : {}),
    enabled: row.enabled,
    quietHours: row.quiet_hours,
    state: row.state,
    stateReason: row.state_reason,
    lastDeliveryAt: iso(row.last_delivery_at),
    lastDeliveryStatus: row.last_delivery_status,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  }
}

/** A channel of one of the caller's organizations; another organization's is 404 like a missing one. */
export async function findChannel(
  sql: Sql,
  organizationIds: readonly string[],
  id: string,
  forUpdate = false,
): Promise<ChannelRow> {
  const { rows } = await sql.query<ChannelRow>(
    `SELECT ${CHANNEL_COLUMNS} FROM monitoring.notification_channels
      WHERE id = $1 AND organization_id = ANY($2)${forUpdate ? ' FOR UPDATE' : ''}`,
    [id, organizationIds],
  )
  if (!rows[0]) throw new GuardError('NOT_FOUND', 'Notification channel not found')
  return rows[0]
}
