import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import {
  activityItem,
  pagination,
  readRecentActivity,
  recentActivityQuery,
} from '../services/dashboard/recent-activity.ts'
import { dashboardStats, readDashboardStats } from '../services/dashboard/stats.ts'
import { tagQuery } from '../services/tags/schemas.ts'
import { envelope, errorResponses, ok } from './common.ts'

const organizationQuery = z.object({ organizationId: z.string().max(64).optional() })

export function dashboardRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/dashboard/stats',
    {
      // Cached like the lists (README "Read cache"); device and incident changes no write announces
      // show within GUARD_READ_CACHE_TTL_MS.
      config: {
        access: { anyOf: ['domains:read', 'services:read', 'heartbeats:read', 'devices:read'] },
        readCache: true,
      },
      schema: {
        description: 'Counts across the organization: domains, devices, services, heartbeats and open incidents.',
        querystring: organizationQuery.extend({ tag: tagQuery }),
        response: { 200: envelope(dashboardStats), ...errorResponses },
      },
    },
    async (request) =>
      ok(await readDashboardStats(ctx, callerOf(request), request.query.organizationId, request.query.tag)),
  )

  app.get(
    '/api/dashboard/recent-activity',
    {
      config: { access: { anyOf: ['domains:read', 'services:read', 'devices:read', 'incidents:read'] } },
      schema: {
        description:
          "The organization's events (monitors down and up, certificates, incidents, devices), newest first, paginated.",
        querystring: recentActivityQuery,
        response: {
          200: z.object({ success: z.literal(true), data: z.array(activityItem), pagination }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await readRecentActivity(ctx, callerOf(request), request.query)),
    }),
  )
}
