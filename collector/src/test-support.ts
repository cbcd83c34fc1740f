import { randomBytes } from 'node:crypto'
import { createInProcessBus, createLogger, guardStreams } from '@guard/shared'
import { openTestRelationalStore, openTestTimeSeriesStore } from '@guard/shared/testing'
import type { FastifyRequest } from 'fastify'
import type { Caller, CollectorContext } from './context.ts'
import { collectorEnvSchema } from './env.ts'
import { startReactions } from './ingest/reactions.ts'
import { authenticate } from './plugins/authenticate.ts'
import { publishStagedEvents } from './services/events/publish.ts'
import { prepareCollector } from './server.ts'

/** A collector context on real engines (PGlite from a template, a fresh chDB database), in process. */
export async function collectorForTest(envOverrides: Record<string, string> = {}) {
  const sql = await openTestRelationalStore()
  const timeseries = await openTestTimeSeriesStore()
  const bus = createInProcessBus({ streams: guardStreams })
  const env = collectorEnvSchema.parse({
    GUARD_INGEST_MAX_WAIT_MS: '50',
    GUARD_SECRET_KEY: randomBytes(32).toString('base64url'),
    ...envOverrides,
  })
  const log = createLogger({ name: 'collector-test', level: 'silent', pretty: false })
  const prepared = await prepareCollector({ env, log, sql, timeseries, bus })
  return {
    ...prepared,
    apiKey: prepared.created!.key,
    async close() {
      await bus.close()
      await timeseries.close()
      await sql.close()
    },
  }
}

/** A signed-in user of `organizationIds` (the first is their current one), as the JWT branch resolves them. */
export function userCaller(id: string, organizationIds: string[], permissions: string[] = ['*:*']): Caller {
  return { principal: { kind: 'user', id }, organizationId: organizationIds[0]!, organizationIds, permissions }
}

/**
 * The auth seam of buildCollectorApp: `Bearer user:<name>` resolves to the user registered under
 * that name, anything else goes through the production authentication.
 */
export function authenticateWithUsers(ctx: CollectorContext, users: Record<string, Caller>) {
  const production = authenticate(ctx)
  return async (request: FastifyRequest) => {
    const name = request.headers.authorization?.match(/^Bearer user:(\S+)$/)?.[1]
    const user = name ? users[name] : undefined
    if (user) {
      request.caller = user
      return
    }
    await production(request)
  }
}

/** Starts the event consumers and the delivery worker of a test collector (no weekly schedule). */
export const startReactionsForTest = (ctx: CollectorContext) => startReactions(ctx, { weeklyReports: false })

/**
 * Publishes every staged event and waits until each consumer that handles it has processed it,
 * repeating while handlers stage more (the incident engine's incident events): then incidents,
 * notifications, deliveries and the activity feed reflect everything that happened so far.
 */
export async function eventsSettled(ctx: CollectorContext, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  const handled = (consumer: string) =>
    `EXISTS (SELECT 1 FROM monitoring.processed_events p WHERE p.event_id = o.id AND p.consumer = '${consumer}')`
  for (;;) {
    await publishStagedEvents(ctx, { olderThanMs: 0 })
    const { rows } = await ctx.sql.query<{ pending: string }>(
      `SELECT count(*) AS pending FROM monitoring.event_outbox o
        WHERE NOT ${handled('activity-feed')}
           OR (o.subject LIKE 'events.incident.%' AND NOT ${handled('notifications')})
           OR (o.subject NOT LIKE 'events.incident.%' AND NOT ${handled('incident-engine')})`,
    )
    if (Number(rows[0]?.pending) === 0) return
    if (Date.now() > deadline) throw new Error(`${rows[0]?.pending} events still unprocessed after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
