import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { type GroupRow, lockGroupTree, nameTaken, ruleColumns } from './find.ts'
import { getGroup } from './get.ts'
import { type CreateGroupInput, createGroupInput, type GroupDetail } from './schemas.ts'
import { checkPlacement } from './tree.ts'

export async function createGroup({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: CreateGroupInput & { organizationId?: string | undefined }
}): Promise<GroupDetail> {
  const { organizationId: requested, ...fields } = input
  const parsed = createGroupInput.parse(fields)
  const organizationId = organizationScope(caller, requested)
  const id = newId()
  await ctx.sql
    .transaction(async (tx) => {
      checkPlacement(await lockGroupTree(tx, organizationId), null, parsed.parentId)
      await tx.query<GroupRow>(
        `INSERT INTO monitoring.monitor_groups (id, organization_id, name, parent_id, rule, rule_percent, description)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, organizationId, parsed.name, parsed.parentId, ...ruleColumns(parsed.rule), parsed.description],
      )
    })
    .catch((error: unknown) => {
      throw nameTaken(error)
    })
  return getGroup({ ctx, caller, input: { id } })
}
