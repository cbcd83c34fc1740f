import { newId } from '@guard/shared'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { checkSubject, findSlo, nameTaken, toSloView } from './find.ts'
import { type CreateSloInput, createSloInput, type SloView } from './schemas.ts'

export async function createSlo({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: CreateSloInput & { organizationId?: string | undefined }
}): Promise<SloView> {
  const { organizationId: requested, ...fields } = input
  const parsed = createSloInput.parse(fields)
  const organizationId = organizationScope(caller, requested)
  await checkSubject(ctx.sql, organizationId, parsed.subject)
  const id = newId()
  await ctx.sql
    .query(
      `INSERT INTO monitoring.slos (id, organization_id, name, monitor_id, group_id, objective, window_type, window_days, burn_alerts)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        id,
        organizationId,
        parsed.name,
        parsed.subject.kind === 'monitor' ? parsed.subject.id : null,
        parsed.subject.kind === 'group' ? parsed.subject.id : null,
        parsed.objective,
        parsed.window.type,
        parsed.window.type === 'rolling' ? parsed.window.days : null,
        JSON.stringify(parsed.burnAlerts),
      ],
    )
    .catch((error: unknown) => {
      throw nameTaken(error)
    })
  return toSloView(await findSlo(ctx.sql, [organizationId], id))
}
