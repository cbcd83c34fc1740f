import type { Caller, CollectorContext } from '../../context.ts'
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
          SET name = $2, slug = $3, description = $4, is_public = $5, updated_at = now()
        WHERE id = $1`,
      [
        page.id,
        input.name ?? page.name,
        input.slug ?? page.slug,
        input.description ?? page.description,
        input.isPublic ?? page.is_public,
      ],
    ),
  )
  return toStatusPageDetail(ctx.sql, await findStatusPage(ctx.sql, caller, id))
}
