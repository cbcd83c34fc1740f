import { GuardError, newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../../context.ts'
import { organizationScope } from '../../access/organization.ts'
import { checkReferences } from './check-references.ts'
import { ROUTE_COLUMNS, type RouteRow } from './match.ts'
import { type RouteInput, type RouteView, routeInput } from './schemas.ts'

export const toRouteView = (row: RouteRow): RouteView => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  position: row.position,
  isDefault: row.is_default,
  selector: row.selector,
  channelIds: row.channel_ids,
  escalationPolicyId: row.escalation_policy_id,
  reminderMinutes: row.reminder_minutes,
  continueMatching: row.continue_matching,
  enabled: row.enabled,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
})

const conflict = (error: unknown) =>
  (error as { code?: string }).code === '23505'
    ? new GuardError('CONFLICT', 'The organization already has a route with that name')
    : error

/**
 * Creates a route, or replaces one (`id`). The default route keeps its place and takes every
 * incident, whatever its selector says: only its channels, policy and reminders apply.
 */
export async function saveRoute({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: RouteInput & { id?: string; organizationId?: string | undefined }
}): Promise<RouteView> {
  const { id, organizationId: requested, ...fields } = input
  const route = routeInput.parse(fields)
  const row = await ctx.sql
    .transaction(async (tx) => {
      let organizationId = organizationScope(caller, requested)
      if (id) {
        const { rows } = await tx.query<{ organization_id: string }>(
          'SELECT organization_id FROM monitoring.notification_routes WHERE id = $1 AND organization_id = ANY($2) FOR UPDATE',
          [id, caller.organizationIds],
        )
        if (!rows[0]) throw new GuardError('NOT_FOUND', 'Route not found')
        organizationId = rows[0].organization_id
      }
      await checkReferences(tx, organizationId, { channelIds: route.channelIds, policyId: route.escalationPolicyId })
      const values = [
        route.name,
        route.position,
        JSON.stringify(route.selector),
        route.channelIds,
        route.escalationPolicyId,
        route.reminderMinutes,
        route.continueMatching,
        route.enabled,
      ]
      const { rows } = id
        ? await tx.query<RouteRow>(
            `UPDATE monitoring.notification_routes
                SET name = $3, position = CASE WHEN is_default THEN position ELSE $4 END, selector = $5, channel_ids = $6,
                    escalation_policy_id = $7, reminder_minutes = $8, continue_matching = $9, enabled = $10, updated_at = now()
              WHERE id = $1 AND organization_id = $2 RETURNING ${ROUTE_COLUMNS}`,
            [id, organizationId, ...values],
          )
        : await tx.query<RouteRow>(
            `INSERT INTO monitoring.notification_routes
               (id, organization_id, name, position, selector, channel_ids, escalation_policy_id, reminder_minutes,
                continue_matching, enabled)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${ROUTE_COLUMNS}`,
            [newId(), organizationId, ...values],
          )
      return rows[0]!
    })
    .catch((error: unknown) => {
      throw conflict(error)
    })
  return toRouteView(row)
}
