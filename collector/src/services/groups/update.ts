import type { Caller, CollectorContext } from '../../context.ts'
import { findGroup, lockGroupTree, nameTaken, ruleColumns, ruleOf } from './find.ts'
import { getGroup } from './get.ts'
import { type GroupDetail, type UpdateGroupInput, updateGroupInput } from './schemas.ts'
import { checkPlacement } from './tree.ts'

/** Renames, moves (under another parent, or to the top with null), or changes the rule of a group. */
export async function updateGroup({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: UpdateGroupInput & { id: string }
}): Promise<GroupDetail> {
  const { id, ...fields } = input
  const changes = updateGroupInput.parse(fields)
  const current = await findGroup(ctx.sql, caller.organizationIds, id)
  await ctx.sql
    .transaction(async (tx) => {
      if (changes.parentId !== undefined) {
        checkPlacement(await lockGroupTree(tx, current.organization_id), current.id, changes.parentId)
      }
      await tx.query(
        `UPDATE monitoring.monitor_groups
            SET name = $3, parent_id = $4, rule = $5, rule_percent = $6, description = $7, updated_at = now()
          WHERE id = $1 AND organization_id = $2`,
        [
          current.id,
          current.organization_id,
          changes.name ?? current.name,
          changes.parentId === undefined ? current.parent_id : changes.parentId,
          ...ruleColumns(changes.rule ?? ruleOf(current)),
          changes.description === undefined ? current.description : changes.description,
        ],
      )
    })
    .catch((error: unknown) => {
      throw nameTaken(error)
    })
  return getGroup({ ctx, caller, input: { id: current.id } })
}
