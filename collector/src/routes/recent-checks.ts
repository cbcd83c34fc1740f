import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import {
  listRecentChecks,
  monitorRecentChecks,
  RECENT_CHECKS_MAX_IDS,
  RECENT_CHECKS_MAX_LIMIT,
} from '../services/monitors/recent-checks.ts'
import { envelope, errorResponses, ok } from './common.ts'

/** Room for the most ids a batch takes (ids of up to 64 characters and their commas). */
const IDS_MAX_LENGTH = RECENT_CHECKS_MAX_IDS * 65

export function recentCheckRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/monitors/recent-checks',
    {
      // Cached until a write or an ingested result of the organization changes it.
      config: { access: { anyOf: ['domains:read', 'services:read', 'heartbeats:read'] }, readCache: true },
      schema: {
        description: `The newest checks of several domains, services and heartbeat monitors at once (what heartbeat bars and sparklines of a list draw; a heartbeat's checks are its runs and missed windows, location \`heartbeat\`, run duration as response time), with each one's uptime over 24 hours: one read for a whole page instead of one history per row. \`ids\` is a comma-separated list of up to ${RECENT_CHECKS_MAX_IDS} monitor ids; \`limit\` (1 to ${RECENT_CHECKS_MAX_LIMIT}, default 30) checks per monitor, oldest first. Ids of other organizations, of kinds the caller may not read, or unknown are left out.`,
        querystring: z.object({
          ids: z.string().min(1).max(IDS_MAX_LENGTH),
          limit: z.coerce.number().int().min(1).max(RECENT_CHECKS_MAX_LIMIT).default(30),
          organizationId: z.string().max(64).optional(),
        }),
        response: { 200: envelope(z.array(monitorRecentChecks)), ...errorResponses },
      },
    },
    async (request) =>
      ok(
        await listRecentChecks({
          ctx,
          caller: callerOf(request),
          input: {
            ids: request.query.ids
              .split(',')
              .map((id) => id.trim())
              .filter(Boolean),
            limit: request.query.limit,
            organizationId: request.query.organizationId,
          },
        }),
      ),
  )
}
