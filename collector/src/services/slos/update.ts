import type { Caller, CollectorContext } from '../../context.ts'
import { findSlo, nameTaken, toSloView, windowOf } from './find.ts'
import { type SloView, type UpdateSloInput, updateSloInput } from './schemas.ts'

/** Changes name, objective, window or burn alerts; the subject is fixed (a new subject is a new SLO). */
export async function updateSlo({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: UpdateSloInput & { id: string }
}): Promise<SloView> {
  const { id, ...fields } = input
  const parsed = updateSloInput.parse(fields)
  const current = await findSlo(ctx.sql, caller.organizationIds, id)
  const window = parsed.window ?? windowOf(current)
  await ctx.sql
    .query(
      `UPDATE monitoring.slos
          SET name = $2, objective = $3, window_type = $4, window_days = $5, burn_alerts = $6, updated_at = now()
        WHERE id = $1`,
      [
        current.id,
        parsed.name ?? current.name,
        parsed.objective ?? current.objective,
        window.type,
        window.type === 'rolling' ? window.days : null,
        JSON.stringify(parsed.burnAlerts ?? current.burn_alerts),
      ],
    )
    .catch((error: unknown) => {
      throw nameTaken(error)
    })
  return toSloView(await findSlo(ctx.sql, caller.organizationIds, id))
}
