import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
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
  await slugTaken(() =>
    ctx.sql.query(
      `INSERT INTO monitoring.status_pages (id, organization_id, name, slug, description, is_public)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, organizationScope(caller, organization), input.name, input.slug, input.description, input.isPublic],
    ),
  )
  return toStatusPageDetail(ctx.sql, await findStatusPage(ctx.sql, caller, id))
}
