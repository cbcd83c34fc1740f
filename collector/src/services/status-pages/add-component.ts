import { GuardError, newId, notFound } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { monitorKinds } from '../monitors/kinds/index.ts'
import { findStatusPage, toStatusPageDetail } from './find.ts'
import { addComponentInputs, type ComponentKind, type StatusPageDetail } from './schemas.ts'

const noun = (kind: ComponentKind) => (kind === 'group' ? 'Group' : monitorKinds[kind].title)

/**
 * Puts a monitor, device or group of the page's own organization at the end of the page. Another
 * organization's monitor is "not found", exactly like one that does not exist.
 */
export async function addStatusPageComponent(
  ctx: CollectorContext,
  caller: Caller,
  pageId: string,
  kind: ComponentKind,
  body: unknown,
): Promise<StatusPageDetail> {
  const input = addComponentInputs[kind].parse(body) as Record<string, string | undefined>
  const subjectId = input[`${kind}Id`] as string
  const page = await findStatusPage(ctx.sql, caller, pageId)
  const subject =
    kind === 'group' || monitorKinds[kind].table !== 'monitoring.monitors'
      ? await ctx.sql.query<{ name: string }>(
          `SELECT name FROM ${kind === 'group' ? 'monitoring.monitor_groups' : monitorKinds[kind].table}
            WHERE id = $1 AND organization_id = $2`,
          [subjectId, page.organization_id],
        )
      : await ctx.sql.query<{ name: string }>(
          'SELECT name FROM monitoring.monitors WHERE id = $1 AND kind = $2 AND organization_id = $3',
          [subjectId, kind, page.organization_id],
        )
  const name = subject.rows[0]?.name
  if (name === undefined) throw notFound(noun(kind))
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
