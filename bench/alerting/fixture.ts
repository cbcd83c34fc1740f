import { type CheckResult, newId } from '@guard/shared'
import type { CollectorContext } from '../../collector/src/context.ts'
import { createChannel } from '../../collector/src/services/notifications/channels/create.ts'
import { userCaller } from '../../collector/src/test-support.ts'

export const round = (value: number) => Number(value.toPrecision(4))

/** The value below which a fraction `q` of the sorted `values` fall (nearest rank). */
export const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

export async function waitFor(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`bench/alerting timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** `count` HTTP domain monitors of `organizationId`, checked from one location (fra), in one statement. */
export async function seedMonitors(ctx: CollectorContext, organizationId: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => newId())
  await ctx.sql.query(
    `INSERT INTO monitoring.monitors (id, organization_id, kind, name, target, check_interval, timeout_seconds)
     SELECT id, $2, 'domain', id, jsonb_build_object('kind', 'http', 'url', 'https://' || id || '.example'), 60, 30
       FROM unnest($1::text[]) AS id`,
    [ids, organizationId],
  )
  return ids
}

/** Two failing results a second apart per monitor: the shipped failure threshold (2) turns each down. */
export function downResults(organizationId: string, monitorIds: string[]): CheckResult[] {
  const started = Date.now() - 60_000
  return monitorIds.flatMap((monitorId) =>
    [0, 1].map((index) => ({
      v: 1 as const,
      id: newId(),
      monitorId,
      organizationId,
      location: 'fra',
      kind: 'http' as const,
      status: 'down' as const,
      startedAt: new Date(started + index * 1000).toISOString(),
      responseTimeMs: 100,
      statusCode: 503,
    })),
  )
}

/**
 * `count` webhook channels of the organization posting to `<origin><prefix><n>`, created as the API
 * creates them (validated, secret generated and sealed), each added to the default route: one route
 * holding them all.
 */
export async function createWebhookChannels(
  ctx: CollectorContext,
  organizationId: string,
  origin: string,
  prefix: string,
  count: number,
): Promise<void> {
  const caller = userCaller('bench', [organizationId])
  for (let index = 0; index < count; index += 1) {
    await createChannel({
      ctx,
      caller,
      input: { name: `hook ${index}`, provider: 'webhook', config: { url: `${origin}${prefix}${index}` } },
    })
  }
}
