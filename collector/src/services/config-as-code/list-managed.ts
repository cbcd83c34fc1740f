import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'

export const managedObjectView = z.object({
  kind: z.string(),
  objectId: z.string(),
  key: z.string().describe("The object's id in guard.yaml"),
})
export type ManagedObjectView = z.infer<typeof managedObjectView>

/** The objects of the caller's organization an apply created or adopted: the console marks them. */
export async function listManagedObjects({
  ctx,
  caller,
}: {
  ctx: CollectorContext
  caller: Caller
}): Promise<ManagedObjectView[]> {
  const { rows } = await ctx.sql.query<{ kind: string; object_id: string; key: string }>(
    `SELECT kind, object_id, key FROM monitoring.config_keys
      WHERE organization_id = $1 AND managed_by_code ORDER BY kind, key`,
    [caller.organizationId],
  )
  return rows.map((row) => ({ kind: row.kind, objectId: row.object_id, key: row.key }))
}
