import type { Caller, CollectorContext } from '../../context.ts'
import { customDomainsChanged } from './custom-domains.ts'
import { findStatusPage, slugTaken, toStatusPageDetail } from './find.ts'
import { type StatusPageDetail, type UpdateStatusPageInput, updateStatusPageInput } from './schemas.ts'

export async function updateStatusPage(
  ctx: CollectorContext,
  caller: Caller,
  id: string,
  body: UpdateStatusPageInput,
): Promise<StatusPageDetail> {
  const input = updateStatusPageInput.parse(body)
  const page = await findStatusPage(ctx.sql, caller, id)
  await slugTaken(() =>
    ctx.sql.query(
      `UPDATE monitoring.status_pages
          SET name = $2, slug = $3, description = $4, is_public = $5, theme = $6, accent_color = $7,
              logo_url = $8, links = $9, timezone = $10, automatic_incidents = $11, locale = $12,
              updated_at = now()
        WHERE id = $1`,
      [
        page.id,
        input.name ?? page.name,
        input.slug ?? page.slug,
        input.description ?? page.description,
        input.isPublic ?? page.is_public,
        input.theme ?? page.theme,
        input.accentColor === undefined ? page.accent_color : input.accentColor,
        input.logoUrl === undefined ? page.logo_url : input.logoUrl,
        JSON.stringify(input.links ?? page.links),
        input.timezone ?? page.timezone,
        input.automaticIncidents ?? page.automatic_incidents,
        input.locale ?? page.locale,
      ],
    ),
  )
  // A custom domain routes to the slug: a renamed page keeps its domain on every replica.
  if (input.slug !== undefined && input.slug !== page.slug) await customDomainsChanged(ctx)
  return toStatusPageDetail(ctx.sql, await findStatusPage(ctx.sql, caller, id))
}
