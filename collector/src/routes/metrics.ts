import type { GuardFastify } from '@guard/shared'
import type { Registry } from 'prom-client'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { readMonitorMetrics } from '../services/metrics/read-monitor-metrics.ts'
import { OPENMETRICS_CONTENT_TYPE } from '../services/metrics/render-openmetrics.ts'
import { errorResponses } from './common.ts'

const metricsRead = { access: { permission: 'metrics:read' as const } }

/** Prometheus text expositions; scrapers authenticate with a `metrics:read` key. */
export function metricsRoutes(app: GuardFastify, ctx: CollectorContext, registry: Registry): void {
  app.get(
    '/metrics',
    {
      config: metricsRead,
      schema: { response: { 200: z.string(), ...errorResponses } },
    },
    async (_request, reply) => {
      reply.type(registry.contentType)
      return registry.metrics()
    },
  )

  app.get(
    '/metrics/monitors',
    {
      config: metricsRead,
      schema: {
        description:
          'OpenMetrics text of what Guard measures in the caller’s organization: monitor state per location, response time and uptime over 24 hours, certificate and domain expiry, incidents, devices and SLOs, labelled with the monitors’ tags. Read from the monitor state, at most 5 seconds old.',
        response: { 200: z.string(), ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.type(OPENMETRICS_CONTENT_TYPE)
      return readMonitorMetrics({ ctx, caller: callerOf(request) })
    },
  )
}
