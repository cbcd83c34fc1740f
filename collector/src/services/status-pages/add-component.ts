import { GuardError, newId, notFound } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { findStatusPage, toStatusPageDetail } from './find.ts'
import {
  addDeviceInput,
  addDomainInput,
  addGroupInput,
  addHeartbeatInput,
  addServiceInput,
  type ComponentKind,
  type StatusPageDetail,
} from './schemas.ts'

const inputs = {
  domain: addDomainInput,
  service: addServiceInput,
  heartbeat: addHeartbeatInput,
  device: addDeviceInput,
  group: addGroupInput,
}
const NOUN = { domain: 'Domain', service: 'Service', heartbeat: 'Heartbeat', device: 'Device', group: 'Group' } as const

/**
 * Puts a domain, service, heartbeat, device or group of the page's own organization at the end of the page. Another
 * organization's monitor is "not found", exactly like one that does not exist.
 */
export async function addStatusPageComponent(
  ctx: CollectorContext,
  caller: Caller,
  pageId: string,
  kind: ComponentKind,
  body: unknown,
): Promise<StatusPageDetail> {
  const input = inputs[kind].parse(body) as {
    domainId?: string
    serviceId?: string
    heartbeatId?: string
    deviceId?: string
    groupId?: string
    displayName?: string
  }
  const subjectId = (input.domainId ??
    input.serviceId ??
    input.heartbeatId ??
    input.deviceId ??
    input.groupId) as string
  const page = await findStatusPage(ctx.sql, caller, pageId)
  const subject =
    kind === 'device' || kind === 'group'
      ? await ctx.sql.query<{ name: string }>(
          `SELECT name FROM monitoring.${kind === 'device' ? 'devices' : 'monitor_groups'}
            WHERE id = $1 AND organization_id = $2`,
          [subjectId, page.organization_id],
        )
      : await ctx.sql.query<{ name: string }>(
          'SELECT name FROM monitoring.monitors WHERE id = $1 AND kind = $2 AND organization_id = $3',
          [subjectId, kind, page.organization_id],
        )
  const name = subject.rows[0]?.name
  if (name === undefined) throw notFound(NOUN[kind])
  const inserted = await ctx.sql.query(
    `INSERT INTO monitoring.status_page_components (id, page_id, kind, subject_id, display_name, position)
     SELECT $1, $2, $3, $4, $5, coalesce(max(position) + 1, 0)
       FROM monitoring.status_page_components WHERE page_id = $2
     ON CONFLICT (page_id, kind, subject_id) DO NOTHING`,
    [newId(), page.id, kind, subjectId, input.displayName ?? name],
  )
  if (inserted.affectedRows === 0) throw new GuardError('CONFLICT', `This ${kind} is already on the page`)
  await ctx.sql.query('UPDATE monitoring.status_pages SET updated_at = now() WHERE id = $1', [page.id])
  return toStatusPageDetail(ctx.sql, await findStatusPage(ctx.sql, caller, pageId))
}
