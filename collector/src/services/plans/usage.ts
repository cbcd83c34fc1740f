import { planLimits } from '@guard/shared'
import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { MONITOR_ROW_KINDS, type MonitorRowKind, monitorKinds, SCHEDULED_KINDS } from '../monitors/kinds/index.ts'
import { countLocations } from './enforce.ts'

type KindCounts = { [K in MonitorRowKind as (typeof monitorKinds)[K]['resource']]: z.ZodInt }

/** One count per kind of monitor row, named after its resource: `domains`, `services`… */
const kindCounts = Object.fromEntries(
  MONITOR_ROW_KINDS.map((kind) => [monitorKinds[kind].resource, z.int()]),
) as unknown as KindCounts

export const usageInput = z.object({ organizationId: z.string().max(64).optional() })

export const usageView = z
  .object({
    organizationId: z.string(),
    plan: z.string().nullable().describe('the catalog plan id; null: no plan, nothing is limited'),
    planName: z.string().nullable(),
    limits: planLimits.nullable().describe("the plan's limits; a limit left out is not limited"),
    usage: z.object({
      monitors: z.int().describe('every kind of monitor together, what the `monitors` limit counts'),
      ...kindCounts,
      minIntervalSeconds: z
        .int()
        .nullable()
        .describe('the shortest checkInterval of a domain or service; null without them (heartbeats run no checks)'),
      locations: z.int().describe("the most locations any monitor runs from ('*' counts every known location)"),
    }),
  })
  .meta({
    example: {
      organizationId: '00000000-0000-7000-8000-000000000001',
      plan: 'free',
      planName: 'Free',
      limits: {
        monitors: 5,
        minIntervalSeconds: 300,
        minBrowserIntervalSeconds: 300,
        locations: 1,
        statusPages: 1,
        retentionDays: 7,
      },
      usage: {
        monitors: 3,
        domains: 2,
        services: 1,
        heartbeats: 0,
        synthetics: 0,
        minIntervalSeconds: 300,
        locations: 1,
      },
    },
  })

export type UsageView = z.infer<typeof usageView>

/** The organization's plan, the plan's limits and what the organization uses of each. */
export async function getUsage({
  ctx,
  caller,
  input,
}: {
  ctx: CollectorContext
  caller: Caller
  input: z.input<typeof usageInput>
}): Promise<UsageView> {
  const organizationId = organizationScope(caller, usageInput.parse(input).organizationId)
  const [{ plan }, counts] = await Promise.all([ctx.plans.planOf(organizationId), countUsage(ctx, organizationId)])
  return {
    organizationId,
    plan: plan?.id ?? null,
    planName: plan?.name ?? null,
    limits: plan?.limits ?? null,
    usage: counts,
  }
}

async function countUsage(ctx: CollectorContext, organizationId: string): Promise<UsageView['usage']> {
  const [{ rows: kinds }, { rows }] = await Promise.all([
    ctx.sql.query<{ kind: MonitorRowKind; count: number }>(
      'SELECT kind, count(*)::int AS count FROM monitoring.monitors WHERE organization_id = $1 GROUP BY kind',
      [organizationId],
    ),
    // Kinds no probe checks (heartbeats): their period and pseudo-location limit nothing.
    ctx.sql.query<{ min_interval: number | null; most_locations: number | null; any_location: boolean | null }>(
      `SELECT min(check_interval)::int AS min_interval,
              max(cardinality(locations)) FILTER (WHERE NOT '*' = ANY (locations))::int AS most_locations,
              bool_or('*' = ANY (locations)) AS any_location
         FROM monitoring.monitors WHERE organization_id = $1 AND kind = ANY($2)`,
      [organizationId, SCHEDULED_KINDS],
    ),
  ])
  const row = rows[0]!
  const counts = Object.fromEntries(MONITOR_ROW_KINDS.map((kind) => [monitorKinds[kind].resource, 0]))
  let monitors = 0
  for (const { kind, count } of kinds) {
    if (!(kind in monitorKinds)) continue
    counts[monitorKinds[kind].resource] = count
    if (monitorKinds[kind].countsAsMonitor) monitors += count
  }
  const everywhere = row.any_location ? await countLocations(ctx.sql, ['*']) : 0
  return {
    monitors,
    ...(counts as z.infer<z.ZodObject<KindCounts>>),
    minIntervalSeconds: row.min_interval,
    locations: Math.max(row.most_locations ?? 0, everywhere),
  }
}
