import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { hasPermission } from '../access/permissions.ts'
import { tagCondition } from '../tags/match.ts'
import { MAX_TAGS, tagSelector } from '../tags/schemas.ts'
import { MONITOR_KINDS, readPermission, type SubjectKind } from './kinds/index.ts'

export const SUBJECT_KINDS = MONITOR_KINDS

export const searchMonitorsInput = z
  .object({
    search: z.string().trim().max(200).optional(),
    kinds: z.array(z.enum(SUBJECT_KINDS)).max(SUBJECT_KINDS.length).optional(),
    tags: z.array(tagSelector).max(MAX_TAGS).optional(),
    ids: z.array(z.string().min(1).max(64)).min(1).max(200).optional(),
    limit: z.number().int().min(1).max(200).default(50),
    organizationId: z.string().max(64).optional(),
  })
  .strict()
export type SearchMonitorsInput = z.input<typeof searchMonitorsInput>

export const monitorMatch = z.object({
  kind: z.enum(SUBJECT_KINDS),
  id: z.string(),
  name: z.string(),
  tags: z.array(z.string()),
  groupId: z.string().nullable(),
})
export type MonitorMatch = z.infer<typeof monitorMatch>

/** `%` and `_` typed in a search are the characters themselves, not patterns. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`

/**
 * Monitors and devices of every kind the caller may read, by name (a domain also by its URL), for
 * pickers that must reach any of thousands: the first `limit` by name, so typing narrows the list
 * instead of a list of 200 cutting the rest off; `ids` names known ones (a picker showing what is
 * already chosen). Kinds the caller may not read are left out, not refused.
 */
export async function searchMonitors({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: SearchMonitorsInput
}): Promise<MonitorMatch[]> {
  const query = searchMonitorsInput.parse(input)
  const organizationId = organizationScope(caller, query.organizationId)
  const readable = (kind: SubjectKind) => hasPermission(caller.permissions, readPermission(kind))
  const kinds = (query.kinds ?? SUBJECT_KINDS).filter(readable)
  if (kinds.length === 0) return []
  const tagged = tagCondition('tags', query.tags ?? [], 6)
  const pattern = query.search ? likePattern(query.search) : null
  const { rows } = await ctx.sql.query<{
    kind: SubjectKind
    id: string
    name: string
    tags: string[]
    group_id: string | null
  }>(
    `SELECT kind, id, name, tags, group_id FROM (
       SELECT kind, id, name, tags, group_id FROM monitoring.monitors
        WHERE organization_id = $1 AND kind = ANY($2)
          AND ($3::text IS NULL OR name ILIKE $3 OR target ->> 'url' ILIKE $3)
          AND ($5::text[] IS NULL OR id = ANY($5)) AND ${tagged.sql}
       UNION ALL
       SELECT 'device', id, name, tags, group_id FROM monitoring.devices
        WHERE organization_id = $1 AND 'device' = ANY($2) AND ($3::text IS NULL OR name ILIKE $3)
          AND ($5::text[] IS NULL OR id = ANY($5)) AND ${tagged.sql}
     ) AS subjects
     ORDER BY lower(name), id
     LIMIT $4`,
    [organizationId, kinds, pattern, query.limit, query.ids ?? null, ...tagged.parameters],
  )
  return rows.map((row) => ({ kind: row.kind, id: row.id, name: row.name, tags: row.tags, groupId: row.group_id }))
}
