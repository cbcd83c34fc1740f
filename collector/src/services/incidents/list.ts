import type { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { INCIDENT_COLUMNS, type IncidentRow, toIncidentView } from './find.ts'
import { listIncidentsQuery } from './schemas.ts'

/** Newest first, in one of the caller's organizations, filtered by status and severity. */
export async function listIncidents(ctx: CollectorContext, caller: Caller, query: z.input<typeof listIncidentsQuery>) {
  const input = listIncidentsQuery.parse(query)
  const organizationId = organizationScope(caller, input.organizationId)
  const where = `organization_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR severity = $3)`
  const params = [organizationId, input.status ?? null, input.severity ?? null]
  const [{ rows }, count] = await Promise.all([
    ctx.sql.query<IncidentRow>(
      `SELECT ${INCIDENT_COLUMNS} FROM monitoring.incidents WHERE ${where}
        ORDER BY detected_at DESC, id DESC LIMIT $4 OFFSET $5`,
      [...params, input.limit, (input.page - 1) * input.limit],
    ),
    ctx.sql.query<{ total: string }>(`SELECT count(*) AS total FROM monitoring.incidents WHERE ${where}`, params),
  ])
  const total = Number(count.rows[0]?.total ?? 0)
  return {
    data: rows.map(toIncidentView),
    pagination: { page: input.page, limit: input.limit, total, totalPages: Math.ceil(total / input.limit) },
  }
}
