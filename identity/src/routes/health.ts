import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'

export const API_VERSION = '1'

/** Liveness only: never touches the database, so it answers while PostgreSQL is away. */
export function healthRoutes(app: GuardFastify): void {
  const health = z.object({ status: z.literal('ok'), service: z.literal('identity'), timestamp: z.string() })
  for (const path of ['/api/health', '/api/v1/health']) {
    app.get(path, { schema: { response: { 200: health } } }, async (_request, reply) => {
      reply.header('API-Version', API_VERSION)
      return { status: 'ok' as const, service: 'identity' as const, timestamp: new Date().toISOString() }
    })
  }
}
