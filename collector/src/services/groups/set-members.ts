import { GuardError } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { findGroup } from './find.ts'
import { getGroup } from './get.ts'
import { type GroupDetail, type SetMembersInput, type Subject, setMembersInput } from './schemas.ts'

const key = (subject: Subject) => `${subject.kind}:${subject.id}`
const idsOf = (subjects: Subject[], devices: boolean) =>
  subjects.filter((subject) => (subject.kind === 'device') === devices).map((subject) => subject.id)

/**
 * Adds and removes members. A member is in one group at most, so adding one that is in another group
 * moves it here. Each one added must be of the group's organization; the request changes nothing
 * when one is not.
 */
export async function setGroupMembers({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: SetMembersInput & { id: string }
}): Promise<GroupDetail> {
  const { id, ...fields } = input
  const { add, remove } = setMembersInput.parse(fields)
  const group = await findGroup(ctx.sql, caller.organizationIds, id)
  const adding = new Set(add.map(key))
  const both = remove.findIndex((subject) => adding.has(key(subject)))
  if (both >= 0) throw new GuardError('VALIDATION_ERROR', `remove[${both}]: also named in add`)
  await ctx.sql.transaction(async (tx) => {
    const { rows } = await tx.query<{ kind: string; id: string }>(
      `SELECT kind, id FROM monitoring.monitors WHERE organization_id = $1 AND id = ANY($2)
       UNION ALL SELECT 'device', id FROM monitoring.devices WHERE organization_id = $1 AND id = ANY($3)`,
      [group.organization_id, idsOf(add, false), idsOf(add, true)],
    )
    const found = new Set(rows.map((row) => `${row.kind}:${row.id}`))
    const missing = add.findIndex((subject) => !found.has(key(subject)))
    if (missing >= 0) {
      throw new GuardError(
        'VALIDATION_ERROR',
        `add[${missing}]: no ${add[missing]!.kind} with that id in the group's organization`,
      )
    }
    for (const [table, devices] of [
      ['monitors', false],
      ['devices', true],
    ] as const) {
      await tx.query(
        `UPDATE monitoring.${table} SET group_id = NULL WHERE organization_id = $1 AND group_id = $2 AND id = ANY($3)`,
        [group.organization_id, group.id, idsOf(remove, devices)],
      )
      await tx.query(`UPDATE monitoring.${table} SET group_id = $2 WHERE organization_id = $1 AND id = ANY($3)`, [
        group.organization_id,
        group.id,
        idsOf(add, devices),
      ])
    }
  })
  return getGroup({ ctx, caller, input: { id: group.id } })
}
