import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { MONITOR_KINDS, type SubjectKind } from '../monitors/kinds/index.ts'

export const recentActivityQuery = z.object({
  organizationId: z.string().max(64).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
})
export type RecentActivityQuery = z.input<typeof recentActivityQuery>

export const activityItem = z.object({
  id: z.string(),
  type: z.string().meta({
    description:
      'the event type: monitor.down, incident.opened, device.offline, …, or a change: <monitor kind>|status-page .created|.deleted',
  }),
  time: z.string(),
  subject: z.object({
    kind: z.enum([...MONITOR_KINDS, 'incident', 'status-page', 'unknown']),
    id: z.string().nullable(),
    name: z.string().nullable().meta({ description: 'null once the subject is deleted' }),
  }),
  message: z.string(),
  link: z.string().nullable().meta({ description: 'path of the subject in the console, e.g. /domains/{id}' }),
})
export const pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
})

interface Row {
  event_id: string
  type: string
  summary: string
  subject_id: string | null
  occurred_at: Date
  monitor_kind: SubjectKind | null
  monitor_name: string | null
  device_name: string | null
  incident_title: string | null
  page_name: string | null
  total: number
}

/** The subject's kind from the event type's prefix; monitor events name the monitor, whose kind says. */
function kindOf(row: Row): z.infer<typeof activityItem>['subject']['kind'] {
  const prefix = row.type.slice(0, row.type.indexOf('.'))
  if (prefix === 'incident' || prefix === 'status-page') return prefix
  if ((MONITOR_KINDS as readonly string[]).includes(prefix)) return prefix as SubjectKind
  return row.monitor_kind ?? 'unknown'
}

/**
 * The organization's events, newest first, from the activity feed the `activity-feed` bus consumer
 * writes (one row per event, idempotent) and the changes API writes record (monitors, devices and pages
 * created or deleted), with the subject resolved to a name and a console path.
 */
export async function readRecentActivity(ctx: CollectorContext, caller: Caller, query: RecentActivityQuery) {
  const { organizationId: requested, page, limit } = recentActivityQuery.parse(query)
  const organizationId = organizationScope(caller, requested)
  const { rows } = await ctx.sql.query<Row>(
    `SELECT a.event_id, a.type, a.summary, a.subject_id, a.occurred_at, count(*) OVER ()::int AS total,
            m.kind AS monitor_kind, m.name AS monitor_name, d.name AS device_name, i.title AS incident_title,
            p.name AS page_name
       FROM monitoring.activity a
       LEFT JOIN monitoring.monitors m ON m.id = a.subject_id AND m.organization_id = a.organization_id
       LEFT JOIN monitoring.devices d ON d.id = a.subject_id AND d.organization_id = a.organization_id
       LEFT JOIN monitoring.incidents i ON i.id = a.subject_id AND i.organization_id = a.organization_id
       LEFT JOIN monitoring.status_pages p ON p.id = a.subject_id AND p.organization_id = a.organization_id
      WHERE a.organization_id = $1
      ORDER BY a.occurred_at DESC, a.event_id DESC
      LIMIT $2 OFFSET $3`,
    [organizationId, limit, (page - 1) * limit],
  )
  const total =
    rows[0]?.total ??
    Number(
      (
        await ctx.sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM monitoring.activity WHERE organization_id = $1',
          [organizationId],
        )
      ).rows[0]?.n ?? 0,
    )
  return {
    data: rows.map((row) => {
      const kind = kindOf(row)
      const name =
        kind === 'incident'
          ? row.incident_title
          : kind === 'device'
            ? row.device_name
            : kind === 'status-page'
              ? row.page_name
              : row.monitor_name
      const exists = name !== null && row.subject_id !== null
      return {
        id: row.event_id,
        type: row.type,
        time: row.occurred_at.toISOString(),
        subject: { kind, id: row.subject_id, name },
        message: row.summary,
        link: exists && kind !== 'unknown' ? `/${kind}s/${row.subject_id}` : null,
      }
    }),
    pagination: { page, limit, total, totalPages: Math.ceil(total / limit) },
  }
}
