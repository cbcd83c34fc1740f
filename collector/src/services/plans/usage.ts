import { planLimits } from '@guard/shared'
import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { countLocations } from './enforce.ts'

export const usageInput = z.object({ organizationId: z.string().max(64).optional() })

export const usageView = z
  .object({
    organizationId: z.string(),
    plan: z.string().nullable().describe('the catalog plan id; null: no plan, nothing is limited'),
    planName: z.string().nullable(),
    limits: planLimits.nullable().describe("the plan's limits; a limit left out is not limited"),
    usage: z.object({
      monitors: z.int().describe('domains, services and heartbeats together, what the `monitors` limit counts'),
      domains: z.int(),
      services: z.int(),
      heartbeats: z.int(),
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
      limits: { monitors: 5, minIntervalSeconds: 300, locations: 1, statusPages: 1, retentionDays: 7 },
      usage: { monitors: 3, domains: 2, services: 1, heartbeats: 0, minIntervalSeconds: 300, locations: 1 },
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
  const { rows } = await ctx.sql.query<{
    domains: number
    services: number
    heartbeats: number
    min_interval: number | null
    most_locations: number | null
    any_location: boolean | null
  }>(
    `SELECT count(*) FILTER (WHERE kind = 'domain')::int AS domains,
            count(*) FILTER (WHERE kind = 'service')::int AS services,
            count(*) FILTER (WHERE kind = 'heartbeat')::int AS heartbeats,
            -- Heartbeats are checked by no probe: their period and pseudo-location limit nothing.
            (min(check_interval) FILTER (WHERE kind <> 'heartbeat'))::int AS min_interval,
            max(cardinality(locations)) FILTER (WHERE kind <> 'heartbeat' AND NOT '*' = ANY (locations))::int AS most_locations,
            bool_or('*' = ANY (locations)) AS any_location
       FROM monitoring.monitors WHERE organization_id = $1`,
    [organizationId],
  )
  const row = rows[0]!
  const everywhere = row.any_location ? await countLocations(ctx.sql, ['*']) : 0
  return {
    monitors: row.domains + row.services + row.heartbeats,
    domains: row.domains,
    services: row.services,
    heartbeats: row.heartbeats,
    minIntervalSeconds: row.min_interval,
    locations: Math.max(row.most_locations ?? 0, everywhere),
  }
}
