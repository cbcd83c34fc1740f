import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { statsPeriod } from '../services/domains/schemas.ts'
import { getMonitorLatency, latencySeries } from '../services/monitors/latency-series.ts'
import type { MonitorKind } from '../services/monitors/schemas.ts'
import { envelope, errorResponses, idParams, ok } from './common.ts'

/** The latency series route of one monitor kind; cached until the monitor's own results change. */
export function monitorLatencyRoute(
  app: GuardFastify,
  ctx: CollectorContext,
  route: { path: string; kind: MonitorKind; permission: 'domains:read' | 'services:read' },
): void {
  app.get(
    route.path,
    {
      config: { access: { permission: route.permission }, readCache: 'monitor' },
      schema: {
        description:
          'Response time per location over the whole range (1h to 90d), in buckets from the rollups: what a chart of a long range draws, where the history gives the newest raw results.',
        params: idParams,
        querystring: z.object({ range: statsPeriod.default('24h') }),
        response: { 200: envelope(latencySeries), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await getMonitorLatency({
          ctx,
          caller: callerOf(request),
          kind: route.kind,
          input: { id: request.params.id, range: request.query.range },
        }),
      ),
  )
}
