import { GuardError } from '@guard/shared'
import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { hasPermission } from '../access/permissions.ts'
import { deleteDevice } from '../devices/delete.ts'
import { updateDevice } from '../devices/update.ts'
import { deleteHeartbeat } from '../heartbeats/delete.ts'
import { updateHeartbeat } from '../heartbeats/update.ts'
import { deleteMonitor } from '../monitors/delete.ts'
import { MONITOR_KINDS, monitorKinds, type SubjectKind, writePermission } from '../monitors/kinds/index.ts'
import { checkInterval, locations } from '../monitors/schemas.ts'
import { updateMonitor } from '../monitors/update.ts'
import { hasTag, tagCondition } from './match.ts'
import { MAX_TAGS, tag, tagSelector } from './schemas.ts'

export const BULK_KINDS = MONITOR_KINDS
type Kind = SubjectKind

const filter = z
  .object({
    kinds: z.array(z.enum(BULK_KINDS)).min(1).max(BULK_KINDS.length).optional(),
    tags: z.array(tagSelector).max(MAX_TAGS).optional(),
    ids: z.array(z.string().min(1).max(64)).min(1).max(10_000).optional(),
  })
  .strict()
const common = { filter, dryRun: z.boolean().default(true), organizationId: z.string().max(64).optional() }

/** One body per action, so `value` is checked as what the action needs and named in the 400. */
export const bulkInput = z.discriminatedUnion('action', [
  z.object({ ...common, action: z.enum(['pause', 'resume', 'delete']) }).strict(),
  z.object({ ...common, action: z.literal('addTag'), value: tag }).strict(),
  z
    .object({ ...common, action: z.literal('removeTag'), value: tagSelector })
    .strict()
    .describe('A bare key removes every tag of that key'),
  z.object({ ...common, action: z.literal('setInterval'), value: checkInterval }).strict(),
  z.object({ ...common, action: z.literal('setLocations'), value: locations }).strict(),
])
export type BulkInput = z.input<typeof bulkInput>
type Bulk = z.infer<typeof bulkInput>

export const bulkResult = z.object({
  matched: z.number().describe('Subjects the filter selects'),
  changed: z.number().describe('Of those, the ones the action changes (or would change, on a dry run)'),
  dryRun: z.boolean(),
})

interface Subject {
  kind: Kind
  id: string
  enabled: boolean
  tags: string[]
  check_interval: number | null
  locations: string[] | null
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value) => b.includes(value))

/** Whether the action changes this subject: already-paused monitors are not paused again, and so on. */
function changes(bulk: Bulk, subject: Subject): boolean {
  const checked = monitorKinds[subject.kind].scheduled
  switch (bulk.action) {
    case 'pause':
      return monitorKinds[subject.kind].table === 'monitoring.monitors' && subject.enabled
    case 'resume':
      return monitorKinds[subject.kind].table === 'monitoring.monitors' && !subject.enabled
    case 'delete':
      return true
    case 'addTag':
      return !subject.tags.includes(bulk.value)
    case 'removeTag':
      return hasTag(subject.tags, bulk.value)
    // A heartbeat's interval is its schedule and it runs nowhere: only probe-checked monitors take these.
    case 'setInterval':
      return checked && subject.check_interval !== bulk.value
    case 'setLocations':
      return checked && !sameSet(subject.locations ?? [], bulk.value)
  }
}

/** The kinds to act on: the ones named, all refused unless writable; by default every kind the caller may write. */
function kindsFor(caller: Caller, named: Kind[] | undefined): Kind[] {
  const writable = (kind: Kind) => hasPermission(caller.permissions, writePermission(kind))
  if (named) {
    const refused = named.filter((kind) => !writable(kind))
    if (refused.length > 0) {
      throw new GuardError('FORBIDDEN', `Missing permission ${refused.map(writePermission).join(', ')}`)
    }
    return [...new Set(named)]
  }
  const kinds = BULK_KINDS.filter(writable)
  if (kinds.length === 0) throw new GuardError('FORBIDDEN', 'Missing permission to write any monitor or device')
  return kinds
}

async function matching(ctx: CollectorContext, organizationId: string, kinds: Kind[], bulk: Bulk) {
  const tagged = tagCondition('tags', bulk.filter.tags ?? [], 4)
  const parameters = [organizationId, kinds, bulk.filter.ids ?? null, ...tagged.parameters]
  const where = `organization_id = $1 AND ($3::text[] IS NULL OR id = ANY($3)) AND ${tagged.sql}`
  const { rows } = await ctx.sql.query<Subject>(
    `SELECT kind, id, enabled, tags, check_interval, locations FROM monitoring.monitors
      WHERE kind = ANY($2) AND ${where}
     UNION ALL
     SELECT 'device', id, true, tags, NULL, NULL FROM monitoring.devices
      WHERE 'device' = ANY($2) AND ${where}`,
    parameters,
  )
  return rows
}

/**
 * One action on every monitor and device of the caller's organization the filter selects. A dry run
 * (the default) counts and changes nothing. Each change goes through the kind's own update or delete
 * service, so plan limits, known locations, schedules and activity are what a single edit gets.
 */
export async function bulkMonitors({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: BulkInput
}): Promise<z.infer<typeof bulkResult>> {
  const bulk = bulkInput.parse(input)
  const organizationId = organizationScope(caller, bulk.organizationId)
  const subjects = await matching(ctx, organizationId, kindsFor(caller, bulk.filter.kinds), bulk)
  const changing = subjects.filter((subject) => changes(bulk, subject))
  if (bulk.action === 'addTag') {
    const full = changing.filter((subject) => subject.tags.length >= MAX_TAGS).length
    if (full > 0) throw new GuardError('VALIDATION_ERROR', `value: ${full} of them already carry ${MAX_TAGS} tags`)
  }
  if (!bulk.dryRun) {
    for (const subject of changing) await apply(ctx, caller, bulk, subject)
  }
  return { matched: subjects.length, changed: changing.length, dryRun: bulk.dryRun }
}

function tagsAfter(bulk: Bulk, tags: string[]): string[] {
  if (bulk.action === 'addTag') return [...tags, bulk.value]
  if (bulk.action === 'removeTag') return tags.filter((carried) => !hasTag([carried], bulk.value))
  return tags
}

async function apply(ctx: CollectorContext, caller: Caller, bulk: Bulk, subject: Subject): Promise<void> {
  const { kind, id } = subject
  if (bulk.action === 'delete') {
    if (kind === 'device') return deleteDevice(ctx, caller, id)
    if (kind === 'heartbeat') return deleteHeartbeat({ ctx, caller, input: { id } })
    return deleteMonitor({ ctx, caller, input: { kind, id } })
  }
  const change =
    bulk.action === 'pause' || bulk.action === 'resume'
      ? { enabled: bulk.action === 'resume' }
      : bulk.action === 'setInterval'
        ? { checkInterval: bulk.value }
        : bulk.action === 'setLocations'
          ? { locations: bulk.value }
          : { tags: tagsAfter(bulk, subject.tags) }
  if (kind === 'device') {
    if ('tags' in change) await updateDevice(ctx, caller, id, { tags: change.tags })
    return
  }
  if (kind === 'heartbeat') {
    if ('checkInterval' in change || 'locations' in change) return
    await updateHeartbeat({ ctx, caller, input: { id, changes: change } })
    return
  }
  await updateMonitor({ ctx, caller, input: { kind, id, changes: change } })
}
