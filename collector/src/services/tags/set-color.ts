import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { setTagColorInput, tagKey } from './schemas.ts'

/** Sets the colour of a tag key for the whole organization, whether or not a subject carries it yet. */
export async function setTagColor({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { key: string; color: string; organizationId?: string | undefined }
}): Promise<{ key: string; color: string }> {
  const key = tagKey.parse(input.key)
  const { color } = setTagColorInput.parse({ color: input.color })
  const organizationId = organizationScope(caller, input.organizationId)
  await ctx.sql.query(
    `INSERT INTO monitoring.tag_colors (organization_id, key, color) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, key) DO UPDATE SET color = EXCLUDED.color, updated_at = now()`,
    [organizationId, key, color],
  )
  return { key, color }
}
