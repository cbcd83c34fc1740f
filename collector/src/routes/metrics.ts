import type { GuardFastify } from '@guard/shared'
import type { Registry } from 'prom-client'
import { z } from 'zod'
import { errorResponses } from './common.ts'

/** Prometheus text exposition of the ingest metrics; scrapers authenticate with a `metrics:read` key. */
export function metricsRoutes(app: GuardFastify, registry: Registry): void {
  app.get(
    '/metrics',
    {
      config: { access: { permission: 'metrics:read' as const } },
      schema: { response: { 200: z.string(), ...errorResponses } },
    },
    async (_request, reply) => {
      reply.type(registry.contentType)
      return registry.metrics()
    },
  )
}
