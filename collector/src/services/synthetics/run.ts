import { encodeCheckResult, resultSubject } from '@guard/shared'
import type { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { findMonitor, findSealedCredentials } from '../monitors/find.ts'
import { runCheckOnProbe } from '../monitors/run-check.ts'
import { monitorConfigOf } from '../monitors/schedule.ts'
import { runSyntheticInput, type SyntheticRunView } from './schemas.ts'
import { storeSyntheticRuns } from './store-runs.ts'

/**
 * Runs the check now on a probe of the chosen location (or any) and returns the run with its
 * steps; the run joins the check's last runs. With `store`, the result also goes where scheduled
 * results go (history, state, incidents), as a service's manual check does.
 */
export async function runSynthetic({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: { id: string } & z.input<typeof runSyntheticInput>
}): Promise<SyntheticRunView> {
  const { id, ...options } = input
  const { location, store } = runSyntheticInput.parse(options)
  const monitor = await findMonitor(ctx.sql, caller, 'synthetic', id)
  const sealed = await findSealedCredentials(ctx.sql, monitor.id)
  const result = await runCheckOnProbe(ctx, monitorConfigOf(monitor, sealed, ctx), location, 'PROBE_UNAVAILABLE')
  await storeSyntheticRuns(ctx.sql, [result])
  if (store) await ctx.bus.publish(resultSubject(result.location), encodeCheckResult(result), { msgId: result.id })
  return {
    id: result.id,
    location: result.location,
    startedAt: result.startedAt,
    status: result.status,
    responseTimeMs: result.responseTimeMs,
    error: result.error ?? null,
    errorKind: result.errorKind ?? null,
    steps: result.details?.steps ?? [],
  }
}
