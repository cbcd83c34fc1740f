import type { Caller, CollectorContext } from '../../context.ts'
import { windowBounds } from './arithmetic.ts'
import { findSlo, toSloView } from './find.ts'
import type { SloStatus, SloView } from './schemas.ts'
import { BURN_RATE_WINDOWS, sloWindowOf, statusFrom, subjectMinutes } from './status.ts'

/** The SLO with its budget now: good and bad minutes, SLI, budget left, burn rates and burn-down. */
export async function getSlo({
  ctx,
  caller,
  input,
  now = Date.now(),
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string }
  now?: number
}): Promise<SloView & { status: SloStatus }> {
  const row = await findSlo(ctx.sql, caller.organizationIds, input.id)
  const window = windowBounds(sloWindowOf(row), now)
  const span = { from: Math.min(window.from, now - BURN_RATE_WINDOWS['3d']), to: Math.max(window.to, now) }
  const minutes = await subjectMinutes(ctx, row, span, now)
  return { ...toSloView(row), status: statusFrom(minutes, Number(row.objective), window, now) }
}
