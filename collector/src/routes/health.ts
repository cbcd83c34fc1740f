import type { DependencyWatch, GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { IngestWatch } from '../ingest/watch.ts'

const state = z.enum(['up', 'down'])

export const healthResponse = z
  .object({
    status: z
      .enum(['ok', 'degraded', 'unavailable'])
      .describe(
        'ok: every dependency answers and the ingest advances; degraded: the API serves, some work waits; unavailable: it cannot serve',
      ),
    timestamp: z.string(),
    checks: z
      .object({
        bus: state,
        relational: state,
        timeseries: state,
        identity: state
          .optional()
          .describe(
            "with GUARD_IDENTITY_URL: down when identity does not answer or refuses the service token (a GUARD_SECRET_KEY other than identity's), so plan and membership lookups fail; asked every 15 s",
          ),
      })
      .describe('Each dependency as of the latest background check (every 2 s), without details'),
    ingest: z
      .array(
        z.object({
          name: z.enum(['results', 'devices']),
          status: z
            .enum(['ok', 'stalled'])
            .describe('stalled: nothing stored for GUARD_INGEST_STALL_MS while messages wait'),
          backlog: z.number().int().describe('messages waiting for the consumer (stream lag)'),
          idleSeconds: z.number().int().describe('seconds since the consumer last stored or dead-lettered a message'),
        }),
      )
      .optional()
      .describe('The result and device-heartbeat ingest of this collector'),
  })
  .describe('200 while the API can serve (PostgreSQL answers), 503 when it cannot')

/**
 * For load balancers and Kubernetes probes: 503 only when the API cannot serve at all (PostgreSQL
 * away); the bus or ClickHouse away, or an ingest that stopped advancing while results wait,
 * degrades it (ingest waits, history fails) but keeps it in rotation.
 */
export function healthRoutes(app: GuardFastify, dependencies: DependencyWatch, ingest?: IngestWatch): void {
  app.get(
    '/api/health',
    { schema: { response: { 200: healthResponse, 503: healthResponse } } },
    async (_request, reply) => {
      const checks = dependencies.states() as z.infer<typeof healthResponse>['checks']
      const consumers = ingest ? await ingest.states() : undefined
      const down = Object.values(checks).filter((value) => value === 'down').length
      const stalled = consumers?.some((consumer) => consumer.status === 'stalled') ?? false
      const status: z.infer<typeof healthResponse>['status'] =
        checks.relational === 'down' ? 'unavailable' : down > 0 || stalled ? 'degraded' : 'ok'
      reply.status(status === 'unavailable' ? 503 : 200)
      return { status, timestamp: new Date().toISOString(), checks, ...(consumers ? { ingest: consumers } : {}) }
    },
  )
}
