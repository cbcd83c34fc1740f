import type { DependencyWatch, GuardFastify } from '@guard/shared'
import { z } from 'zod'

const state = z.enum(['up', 'down'])

export const healthResponse = z
  .object({
    status: z
      .enum(['ok', 'degraded', 'unavailable'])
      .describe(
        'ok: every dependency answers; degraded: the API serves, some work waits; unavailable: it cannot serve',
      ),
    timestamp: z.string(),
    checks: z
      .object({ bus: state, relational: state, timeseries: state })
      .describe('Each dependency as of the latest background check (every 2 s), without details'),
  })
  .describe('200 while the API can serve (PostgreSQL answers), 503 when it cannot')

/**
 * For load balancers and Kubernetes probes: 503 only when the API cannot serve at all (PostgreSQL
 * away); the bus or ClickHouse away degrades it (ingest waits, history fails) but keeps it in rotation.
 */
export function healthRoutes(app: GuardFastify, dependencies: DependencyWatch): void {
  app.get(
    '/api/health',
    { schema: { response: { 200: healthResponse, 503: healthResponse } } },
    async (_request, reply) => {
      const checks = dependencies.states() as z.infer<typeof healthResponse>['checks']
      const down = Object.values(checks).filter((value) => value === 'down').length
      const status: z.infer<typeof healthResponse>['status'] =
        checks.relational === 'down' ? 'unavailable' : down > 0 ? 'degraded' : 'ok'
      reply.status(status === 'unavailable' ? 503 : 200)
      return { status, timestamp: new Date().toISOString(), checks }
    },
  )
}
