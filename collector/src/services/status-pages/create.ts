import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { recordChange } from '../activity/record-change.ts'
import { findStatusPage, slugTaken, toStatusPageDetail } from './find.ts'
import { type CreateStatusPageInput, createStatusPageInput, type StatusPageDetail } from './schemas.ts'

export async function createStatusPage(
  ctx: CollectorContext,
  caller: Caller,
  body: CreateStatusPageInput,
  organization?: string,
): Promise<StatusPageDetail> {
  const input = createStatusPageInput.parse(body)
  const id = newId()
  const organizationId = organizationScope(caller, organization)
  await slugTaken(() =>
    ctx.sql.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO monitoring.status_pages
         (id, organization_id, name, slug, description, is_public, theme, accent_color, logo_url, links, timezone,
          automatic_incidents, locale)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          id,
          organizationId,
          input.name,
          input.slug,
          input.description,
          input.isPublic,
          input.theme,
          input.accentColor,
          input.logoUrl,
          JSON.stringify(input.links),
          input.timezone,
          input.automaticIncidents,
          input.locale,
        ],
      )
      await recordChange(tx, { organizationId, kind: 'status-page', action: 'created', id, name: input.name })
    }),
  )
  return toStatusPageDetail(ctx.sql, await findStatusPage(ctx.sql, caller, id))
}
