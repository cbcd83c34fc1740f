import { DEFAULT_ORGANIZATION } from '@guard/shared'
import { applyConfig } from '../../collector/src/services/config-as-code/apply.ts'
import { planConfig } from '../../collector/src/services/config-as-code/plan.ts'
import { collectorForTest, userCaller } from '../../collector/src/test-support.ts'

/**
 * bench/config: plan and apply of one guard.yaml document of BENCH_MONITORS (5000) domains against
 * the embedded store (PGlite). Timed: the first plan (all creates), the first apply, a plan with
 * no change, and the plan and apply after one monitor's interval changed, whose apply must make
 * one write (`writes` is the number of changes it made).
 */
const count = Number(process.env.BENCH_MONITORS ?? 5000)
const round = (value: number) => Number(value.toPrecision(4))

const documentWith = (changedInterval: number) => ({
  version: 1,
  tags: [{ id: 'bench', name: 'bench' }],
  domains: Array.from({ length: count }, (_, index) => ({
    id: `site-${index}`,
    name: `Site ${index}`,
    url: `https://site-${index}.example.com/health`,
    checkInterval: index === 0 ? changedInterval : 300,
    tags: ['bench'],
  })),
})

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now()
  const result = await work()
  return { ms: round(performance.now() - started), result }
}

const harness = await collectorForTest()
try {
  const caller = userCaller('bench', [DEFAULT_ORGANIZATION.id])
  const input = (document: object) => ({ ctx: harness.ctx, caller, input: { document } })
  const firstPlan = await timed(() => planConfig(input(documentWith(300))))
  const firstApply = await timed(() => applyConfig(input(documentWith(300))))
  const unchanged = await timed(() => planConfig(input(documentWith(300))))
  const changedPlan = await timed(() => planConfig(input(documentWith(600))))
  const changedApply = await timed(() => applyConfig(input(documentWith(600))))
  const summary = changedApply.result.summary
  console.log(
    JSON.stringify(
      {
        monitors: count,
        firstPlanMs: firstPlan.ms,
        firstApplyMs: firstApply.ms,
        firstApplyCreated: firstApply.result.summary.create,
        firstApplyFailed: firstApply.result.summary.failed,
        noChangePlanMs: unchanged.ms,
        noChangePlanChanges: unchanged.result.changes.length,
        oneChangePlanMs: changedPlan.ms,
        oneChangeApplyMs: changedApply.ms,
        oneChangeWrites: summary.create + summary.update + summary.delete,
      },
      null,
      2,
    ),
  )
} finally {
  await harness.close()
}
