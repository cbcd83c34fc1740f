import { createHash } from 'node:crypto'
import { GuardError } from '@guard/shared'
import { envReferences, type GuardDocument, guardDocument, referenceProblems } from '@guard/shared/config-as-code'
import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import type { ConfigKind, DesiredFields, Fields, KindAdapter } from './kind.ts'
import { ADAPTERS, type KeyedObject, type OrganizationState, readState } from './state.ts'

export const planInput = z.strictObject({
  document: z.unknown(),
  prune: z.boolean().default(false).describe('Delete the objects the document does not name'),
  pruneUnmanaged: z
    .boolean()
    .default(false)
    .describe('With prune: also those apply did not create or adopt (managed by code)'),
})
export type PlanInput = z.input<typeof planInput>

export const fieldChange = z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })
export const plannedChange = z.object({
  action: z.enum(['create', 'update', 'delete']),
  kind: z
    .string()
    .describe('tag, group, channel, route, domain, service, heartbeat, synthetic, maintenance, status-page'),
  id: z.string().describe("The entry's id in the document"),
  objectId: z.string().optional().describe("The object's id in the organization; absent for a create"),
  changes: z.array(fieldChange),
})
export type PlannedChange = z.infer<typeof plannedChange>
export const planView = z.object({
  changes: z.array(plannedChange),
  summary: z.object({ create: z.number().int(), update: z.number().int(), delete: z.number().int() }),
})
export type PlanView = z.infer<typeof planView>

/** A change with what apply needs to make it. */
export interface PlanStep extends PlannedChange {
  adapter: KindAdapter
  desired?: DesiredFields
  secretHash?: string | undefined
}

export interface ComputedPlan {
  steps: PlanStep[]
  /** Objects the document names that have no config_keys row yet: apply records their keys. */
  adopted: { kind: ConfigKind; key: string; objectId: string }[]
  state: OrganizationState
}

const SECRET = '(secret)'

/** JSON with sorted keys, so equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)))
      : item,
  )
}

export const secretHashOf = (secrets: Fields): string | undefined =>
  Object.keys(secrets).length === 0 ? undefined : createHash('sha256').update(canonical(secrets)).digest('hex')

/** A document: checked against the schema and its references; `${env:…}` must be resolved by the sender. */
export function parseDocument(value: unknown): GuardDocument {
  const parsed = guardDocument.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new GuardError('VALIDATION_ERROR', `document.${issue.path.join('.')}: ${issue.message}`)
  }
  const unresolved = envReferences(parsed.data)
  if (unresolved.length > 0) {
    // The collector's own environment is no place to look: its variables are not the sender's to read.
    throw new GuardError(
      'VALIDATION_ERROR',
      `document: resolve the environment references before sending (${unresolved.slice(0, 5).join(', ')})`,
    )
  }
  const problems = referenceProblems(parsed.data)
  if (problems.length > 0) {
    throw new GuardError(
      'VALIDATION_ERROR',
      problems
        .slice(0, 20)
        .map((problem) => `document.${problem.path.join('.')}: ${problem.message}`)
        .join('; '),
    )
  }
  return parsed.data
}

/**
 * A maintenance entry covering several monitors is one window per monitor, as the organization
 * stores them: `sunday` over `shop` and `db` is `sunday@shop` and `sunday@db`.
 */
function expandMaintenance(document: GuardDocument): GuardDocument {
  const maintenance = document.maintenance.flatMap((window) =>
    (window.monitors?.length ?? 0) > 1
      ? window.monitors!.map((monitor) => ({ ...window, id: `${window.id}@${monitor}`, monitors: [monitor] }))
      : [window],
  )
  return { ...document, maintenance }
}

const sortedIn = (fields: Fields, names: readonly string[]): Fields =>
  Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name,
      names.includes(name) && Array.isArray(value) ? [...value].map(String).sort() : value,
    ]),
  )

/** The fields the entry gives that differ from the object's, write-only ones by their last applied hash. */
function differences(adapter: KindAdapter, object: KeyedObject, state: OrganizationState, desired: DesiredFields) {
  const unordered = adapter.unordered ?? []
  const wanted = sortedIn(desired.fields, unordered)
  const raw = sortedIn(object.fields(state.references), unordered)
  const current = adapter.project ? adapter.project(raw, wanted) : raw
  const changes = Object.entries(wanted)
    .filter(([field, value]) => canonical(value) !== canonical(current[field] ?? null))
    .map(([field, value]) => ({ field, from: current[field] ?? null, to: value }))
  const hash = secretHashOf(desired.secrets)
  // Without a recorded hash (an object apply did not write) its secrets cannot be compared: left as they are.
  if (hash && object.row?.secret_hash && hash !== object.row.secret_hash) {
    for (const field of Object.keys(desired.secrets)) changes.push({ field, from: SECRET, to: SECRET })
  }
  return changes
}

const shown = (desired: DesiredFields) => [
  ...Object.entries(desired.fields).map(([field, to]) => ({ field, from: null, to })),
  ...Object.keys(desired.secrets).map((field) => ({ field, from: null, to: SECRET })),
]

/** Compares the document with the organization and lists what apply would change. */
export async function computePlan({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: PlanInput
}): Promise<ComputedPlan> {
  const { document: raw, prune, pruneUnmanaged } = planInput.parse(input)
  const document = expandMaintenance(parseDocument(raw))
  const state = await readState({ ctx, caller, document })
  const steps: PlanStep[] = []
  const adopted: ComputedPlan['adopted'] = []
  const problems: string[] = []

  for (const adapter of ADAPTERS) {
    const entries = document[adapter.list] as Fields[]
    const objects = new Map((state.objects.get(adapter.kind) ?? []).map((object) => [object.key, object]))
    entries.forEach((entry, index) => {
      const key = String(entry.id)
      let desired: DesiredFields
      try {
        desired = adapter.desired(entry, state.references)
      } catch (error) {
        problems.push(...entryProblems(`${adapter.list}[${index}]`, error))
        return
      }
      const object = objects.get(key)
      const secretHash = secretHashOf(desired.secrets)
      if (!object) {
        // A tag without a colour has nothing of its own to store: monitors carrying it make it.
        if (adapter.kind === 'tag' && desired.fields.color === undefined) return
        steps.push({
          action: 'create',
          kind: adapter.kind,
          id: key,
          changes: shown(desired),
          adapter,
          desired,
          secretHash,
        })
        return
      }
      if (!object.row) adopted.push({ kind: adapter.kind, key, objectId: object.objectId })
      const changes = differences(adapter, object, state, desired)
      if (changes.length > 0) {
        steps.push({
          action: 'update',
          kind: adapter.kind,
          id: key,
          objectId: object.objectId,
          changes,
          adapter,
          desired,
          secretHash,
        })
      }
    })
    if (!prune || adapter.neverPruned) continue
    const named = new Set(entries.map((entry) => String(entry.id)))
    for (const object of state.objects.get(adapter.kind) ?? []) {
      if (named.has(object.key)) continue
      if (!pruneUnmanaged && !object.row?.managed_by_code) continue
      steps.push({
        action: 'delete',
        kind: adapter.kind,
        id: object.key,
        objectId: object.objectId,
        changes: [],
        adapter,
      })
    }
  }
  if (problems.length > 0) throw new GuardError('VALIDATION_ERROR', problems.slice(0, 20).join('; '))
  return { steps, adopted, state }
}

function entryProblems(where: string, error: unknown): string[] {
  if (error instanceof z.ZodError) {
    return error.issues.map(
      (issue) => `document.${where}${issue.path.map((step) => `.${String(step)}`).join('')}: ${issue.message}`,
    )
  }
  if (error instanceof GuardError) return [`document.${where}.${error.message}`]
  throw error
}

export const viewOf = (steps: readonly PlanStep[]): PlanView => ({
  changes: steps.map(({ action, kind, id, objectId, changes }) => ({
    action,
    kind,
    id,
    ...(objectId ? { objectId } : {}),
    changes,
  })),
  summary: {
    create: steps.filter((step) => step.action === 'create').length,
    update: steps.filter((step) => step.action === 'update').length,
    delete: steps.filter((step) => step.action === 'delete').length,
  },
})

/** What apply would change, as a list of creates, updates with their changed fields, and deletes. */
export async function planConfig(args: { ctx: CollectorContext; caller: Caller; input: PlanInput }): Promise<PlanView> {
  return viewOf((await computePlan(args)).steps)
}
