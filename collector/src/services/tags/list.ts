import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import type { TagView } from './schemas.ts'

/** Distinct enough for chips side by side; a key without a stored colour always gets the same one. */
const PALETTE = ['#2563eb', '#16a34a', '#dc2626', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777', '#4b5563']

export function derivedColor(key: string): string {
  let hash = 0
  for (const char of key) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0
  return PALETTE[hash % PALETTE.length]!
}

type Kind = keyof TagView['counts']

/** Every tag in use in the organization, with how many subjects of each kind carry it and its key's colour. */
export async function listTags({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { organizationId?: string | undefined }
}): Promise<TagView[]> {
  const organizationId = organizationScope(caller, input.organizationId)
  const [{ rows }, colors] = await Promise.all([
    ctx.sql.query<{ tag: string; kind: Kind; count: string }>(
      `SELECT tag, kind, count(*) AS count
         FROM (SELECT unnest(tags) AS tag, kind FROM monitoring.monitors WHERE organization_id = $1
               UNION ALL
               SELECT unnest(tags), 'device' FROM monitoring.devices WHERE organization_id = $1) tagged
        GROUP BY tag, kind`,
      [organizationId],
    ),
    ctx.sql.query<{ key: string; color: string }>(
      'SELECT key, color FROM monitoring.tag_colors WHERE organization_id = $1',
      [organizationId],
    ),
  ])
  const colorOf = new Map(colors.rows.map((row) => [row.key, row.color]))
  const views = new Map<string, TagView>()
  for (const row of rows) {
    const colon = row.tag.indexOf(':')
    const key = colon === -1 ? row.tag : row.tag.slice(0, colon)
    const view = views.get(row.tag) ?? {
      tag: row.tag,
      key,
      value: colon === -1 ? null : row.tag.slice(colon + 1),
      color: colorOf.get(key) ?? derivedColor(key),
      colorSet: colorOf.has(key),
      counts: { domain: 0, service: 0, heartbeat: 0, device: 0 },
      total: 0,
    }
    if (row.kind in view.counts) view.counts[row.kind] += Number(row.count)
    view.total += Number(row.count)
    views.set(row.tag, view)
  }
  return [...views.values()].sort((a, b) => a.tag.localeCompare(b.tag))
}
