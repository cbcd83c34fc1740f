import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import { API_VERSION } from '../services/docs/api-index.ts'
import { problemResponses, withAlias } from './schemas.ts'

const health = z.object({ status: z.literal('ok'), service: z.literal('identity'), timestamp: z.iso.datetime() })

/** Liveness only: never touches the database, so it answers while PostgreSQL is away. */
export function healthRoutes(app: GuardFastify): void {
  for (const path of withAlias('/api/v1/health')) {
    app.get(
      path,
      {
        // Reports the public quota without spending it: a load balancer's probes must not lock a client out.
        config: { rateLimit: 'report' },
        schema: {
          summary: 'Liveness probe',
          description: 'Never queries the database. Sends API-Version and RateLimit.',
          tags: ['api'],
          response: { 200: health, ...problemResponses(500) },
        },
      },
      async (_request, reply) => {
        reply.header('API-Version', API_VERSION)
        return { status: 'ok' as const, service: 'identity' as const, timestamp: new Date().toISOString() }
      },
    )
  }
}
