import type { Sql } from '@guard/shared'
import { z } from 'zod'

export const auditEntryView = z
  .object({
    id: z.string(),
    at: z.iso.datetime(),
    actor: z.object({ type: z.string(), id: z.string().nullable(), label: z.string() }),
    action: z.string(),
    target: z.object({ type: z.string(), id: z.string().nullable() }).nullable(),
    details: z.record(z.string(), z.unknown()),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' })

export const auditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('1 to 500, default 100'),
  before: z.string().optional().describe('Only entries older than the entry with this id (paging, newest first)'),
  action: z.string().max(100).optional().describe('Only this action, e.g. `user.create`'),
})

interface Row {
  id: string
  at: Date
  actor_type: string
  actor_id: string | null
  actor: string
  action: string
  target_type: string | null
  target_id: string | null
  details: Record<string, unknown>
  ip: string | null
  user_agent: string | null
}

/** Newest first. Ids are UUID v7, so `before` pages by id within equal timestamps. */
export async function listAudit(
  sql: Sql,
  input: z.input<typeof auditQuery>,
): Promise<z.infer<typeof auditEntryView>[]> {
  const query = auditQuery.parse(input)
  const { rows } = await sql.query<Row>(
    `SELECT * FROM identity.audit_log
      WHERE ($1::text IS NULL OR id < $1) AND ($2::text IS NULL OR action = $2)
      ORDER BY id DESC LIMIT $3`,
    [query.before ?? null, query.action ?? null, query.limit],
  )
  return rows.map((row) => ({
    id: row.id,
    at: new Date(row.at).toISOString(),
    actor: { type: row.actor_type, id: row.actor_id, label: row.actor },
    action: row.action,
    target: row.target_type ? { type: row.target_type, id: row.target_id } : null,
    details: row.details,
    ip: row.ip,
    userAgent: row.user_agent,
  }))
}
