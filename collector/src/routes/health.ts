import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'

export function healthRoutes(app: GuardFastify): void {
  app.get(
    '/api/health',
    {
      schema: {
        response: { 200: z.object({ status: z.literal('ok'), timestamp: z.string() }) },
      },
    },
    async () => ({ status: 'ok' as const, timestamp: new Date().toISOString() }),
  )
}
