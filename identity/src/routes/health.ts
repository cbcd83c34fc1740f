import type { DependencyWatch, GuardFastify } from '@guard/shared'
import { z } from 'zod'
import { API_VERSION } from '../services/docs/api-index.ts'
import { problemResponses, withAlias } from './schemas.ts'

const health = z.object({
  status: z
    .enum(['ok', 'degraded'])
    .describe('degraded: the database is away; the catalog is served from the bundled copy (source: static)'),
  service: z.literal('identity'),
  timestamp: z.iso.datetime(),
  checks: z
    .object({ relational: z.enum(['up', 'down']) })
    .optional()
    .describe('Each dependency as of the latest background check (every 2 s), without details'),
})

/**
 * Never queries the database in the request, so it answers while PostgreSQL is away: 200 even
 * then, because identity still serves the catalog (source: static) and discovery; `checks` says
 * what a background watch last saw.
 */
export function healthRoutes(app: GuardFastify, dependencies?: DependencyWatch): void {
  for (const path of withAlias('/api/v1/health')) {
    app.get(
      path,
      {
        // Reports the public quota without spending it: a load balancer's probes must not lock a client out.
        config: { rateLimit: 'report' },
        schema: {
          summary: 'Health for load balancers',
          description:
            'Never queries the database in the request (a background check does). Always 200 while the process serves. Sends API-Version and RateLimit.',
          tags: ['api'],
          response: { 200: health, ...problemResponses(500) },
        },
      },
      async (_request, reply) => {
        reply.header('API-Version', API_VERSION)
        const relational = dependencies?.states().relational
        return {
          status: relational === 'down' ? ('degraded' as const) : ('ok' as const),
          service: 'identity' as const,
          timestamp: new Date().toISOString(),
          ...(relational ? { checks: { relational } } : {}),
        }
      },
    )
  }
}
