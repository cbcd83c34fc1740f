import { GuardError, newId } from '@guard/shared'
import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { setDependencies } from '../dependencies/set.ts'
import type { MonitorConfigKind, Scope } from './kind.ts'
import { MONITOR_CONFIG_KINDS } from './kind.ts'
import { computePlan, type PlanInput, type PlanStep, plannedChange, viewOf } from './plan.ts'
import { ADAPTERS } from './state.ts'

export const applyView = z.object({
  applied: z.array(plannedChange),
  failed: z.array(plannedChange.extend({ error: z.string() })),
  summary: z.object({
    create: z.number().int(),
    update: z.number().int(),
    delete: z.number().int(),
    failed: z.number().int(),
  }),
})
export type ApplyView = z.infer<typeof applyView>

const isMonitor = (kind: string): kind is MonitorConfigKind =>
  (MONITOR_CONFIG_KINDS as readonly string[]).includes(kind)

/** Parents before children: a group names its parent, created in the same apply. */
function depthOf(step: PlanStep, steps: readonly PlanStep[]): number {
  let depth = 0
  let parent = step.desired?.fields.parent
  while (typeof parent === 'string' && depth < 10) {
    depth += 1
    parent = steps.find((other) => other.kind === 'group' && other.id === parent)?.desired?.fields.parent
  }
  return depth
}

const messageOf = (error: unknown) =>
  error instanceof GuardError
    ? error.message
    : error instanceof z.ZodError
      ? error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')
      : String(error)

/**
 * Makes the plan's changes through each object's own service functions (their checks, limits,
 * audit and events apply), in dependency order, deletes last; a failed change is reported and
 * the rest go on, so re-running after a fix finishes the job. Dependencies are set once every
 * monitor exists.
 */
export async function applyConfig({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: PlanInput
}): Promise<ApplyView> {
  const { steps, adopted, state } = await computePlan({ ctx, caller, input })
  const scope: Scope = { ctx, caller, references: state.references }
  const organizationId = state.organizationId
  const applied: PlanStep[] = []
  const failed: (PlanStep & { error: string })[] = []

  if (adopted.length > 0) {
    await ctx.sql.query(
      `INSERT INTO monitoring.config_keys (organization_id, kind, key, object_id, managed_by_code)
       SELECT $1, kind, key, object_id, true FROM unnest($2::text[], $3::text[], $4::text[]) AS a(kind, key, object_id)
       ON CONFLICT DO NOTHING`,
      [organizationId, adopted.map((a) => a.kind), adopted.map((a) => a.key), adopted.map((a) => a.objectId)],
    )
  }

  const writes = steps.filter((step) => step.action !== 'delete')
  const ordered = [
    ...writes.filter((step) => step.kind !== 'group'),
    ...writes.filter((step) => step.kind === 'group').sort((a, b) => depthOf(a, steps) - depthOf(b, steps)),
  ].sort((a, b) => order(a) - order(b))
  const dependencies: PlanStep[] = []
  for (const step of ordered) {
    try {
      const desired = step.desired!
      if (step.action === 'create') {
        const objectId = await step.adapter.create(scope, desired)
        state.remember(step.adapter.kind, step.id, objectId)
        await recordKey(ctx, organizationId, step, objectId)
        step.objectId = objectId
      } else {
        const changed = step.changes.map((change) => change.field)
        await step.adapter.update(scope, step.objectId!, changed, desired)
        const secretsWritten = Object.keys(desired.secrets).some((field) => changed.includes(field))
        await recordKey(ctx, organizationId, step, step.objectId!, secretsWritten)
      }
      if (isMonitor(step.kind) && step.changes.some((change) => change.field === 'dependsOn')) dependencies.push(step)
      applied.push(step)
    } catch (error) {
      failed.push({ ...step, error: messageOf(error) })
    }
  }
  for (const step of dependencies) {
    try {
      const dependsOn = ((step.desired?.fields.dependsOn as string[] | undefined) ?? []).map((key) => {
        const monitor = state.references.monitorOf(key)
        if (!monitor) throw new GuardError('VALIDATION_ERROR', `dependsOn: monitor ${key} was not created`)
        return monitor.id
      })
      await setDependencies({ ctx, caller, input: { id: step.objectId!, dependsOn } })
    } catch (error) {
      applied.splice(applied.indexOf(step), 1)
      failed.push({ ...step, error: messageOf(error) })
    }
  }
  const deletes = steps.filter((step) => step.action === 'delete').sort((a, b) => order(b) - order(a))
  for (const step of deletes) {
    try {
      await step.adapter.remove(scope, step.objectId!)
      await ctx.sql.query(
        'DELETE FROM monitoring.config_keys WHERE organization_id = $1 AND kind = $2 AND object_id = $3',
        [organizationId, step.kind, step.objectId],
      )
      applied.push(step)
    } catch (error) {
      failed.push({ ...step, error: messageOf(error) })
    }
  }

  const view = viewOf(applied)
  const failures = viewOf(failed).changes.map((change, index) => ({ ...change, error: failed[index]!.error }))
  if (applied.length + failed.length > 0) await audit(ctx, caller, organizationId, view.changes, failures)
  return { applied: view.changes, failed: failures, summary: { ...view.summary, failed: failures.length } }
}

const KIND_ORDER: readonly string[] = ADAPTERS.map((adapter) => adapter.kind)
const order = (step: PlanStep) => KIND_ORDER.indexOf(step.kind)

/** The object's key, managed by code from now on; its write-only values' hash when apply wrote them. */
async function recordKey(
  ctx: CollectorContext,
  organizationId: string,
  step: PlanStep,
  objectId: string,
  secretsWritten = true,
) {
  await ctx.sql.query(
    `INSERT INTO monitoring.config_keys (organization_id, kind, key, object_id, managed_by_code, secret_hash)
     VALUES ($1, $2, $3, $4, true, $5)
     ON CONFLICT (organization_id, kind, key) DO UPDATE SET object_id = EXCLUDED.object_id, managed_by_code = true,
       secret_hash = CASE WHEN $6 THEN EXCLUDED.secret_hash ELSE monitoring.config_keys.secret_hash END`,
    [organizationId, step.kind, step.id, objectId, step.secretHash ?? null, secretsWritten],
  )
}

/** Who applied what and when: a row of config_applies and a line of the activity feed. */
async function audit(
  ctx: CollectorContext,
  caller: Caller,
  organizationId: string,
  changes: ApplyView['applied'],
  failures: ApplyView['failed'],
) {
  const id = newId()
  const count = (action: string) => changes.filter((change) => change.action === action).length
  await ctx.sql.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO monitoring.config_applies (id, organization_id, principal_kind, principal_id, changes, failures)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        id,
        organizationId,
        caller.principal.kind,
        caller.principal.id,
        JSON.stringify(changes),
        JSON.stringify(failures),
      ],
    )
    await tx.query(
      `INSERT INTO monitoring.activity (event_id, organization_id, type, summary, subject_id, occurred_at)
       VALUES ($1, $2, 'config.applied', $3, $4, now())`,
      [
        `config.applied:${id}`,
        organizationId,
        `Configuration applied by ${caller.principal.kind} ${caller.principal.id}: ${count('create')} created, ${count('update')} changed, ${count('delete')} deleted${failures.length > 0 ? `, ${failures.length} failed` : ''}`,
        id,
      ],
    )
  })
}
