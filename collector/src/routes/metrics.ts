import type { GuardFastify } from '@guard/shared'
import type { FastifyReply } from 'fastify'
import type { Registry } from 'prom-client'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import type { ContentEncoding } from '../services/encoded-body.ts'
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
          'OpenMetrics text of what Guard measures in the caller’s organization: monitor state per location, response time and uptime over 24 hours, certificate and domain expiry, incidents, devices and SLOs. A monitor’s name, kind, group and tags are labels of its `guard_monitor_info` series only; the other series carry `monitor_id` (and `location`) to join on. Read from the monitor state, at most GUARD_MONITOR_METRICS_CACHE_MS (5 seconds) old; gzipped when the scraper accepts it.',
        response: { 200: z.string(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const scrape = await readMonitorMetrics({
        ctx,
        caller: callerOf(request),
        input: { acceptEncoding: request.headers['accept-encoding'] },
      })
      return sendScrape(reply, scrape)
    },
  )
}

/** The text's bytes as they are (the schema documents the text; a Buffer skips serialization). */
function sendScrape(
  reply: FastifyReply,
  { encoding, bytes }: { encoding: ContentEncoding | undefined; bytes: Buffer },
) {
  reply.type(OPENMETRICS_CONTENT_TYPE).header('Vary', 'Accept-Encoding')
  if (encoding) reply.header('Content-Encoding', encoding)
  return reply.send(bytes)
}
