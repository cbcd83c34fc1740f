import {
  GuardError,
  type GuardFastify,
  type Logger,
  organizationPlan,
  type Sql,
  verifyServiceToken,
} from '@guard/shared'
import { z } from 'zod'
import { getOrganizationPlan } from '../services/organizations/get-plan.ts'
import { problemResponses } from './schemas.ts'

/** What the service-to-service routes work with. */
export interface InternalOptions {
  sql: Sql
  /** GUARD_SECRET_KEY (or the generated one): callers prove they share it with a service token. */
  secretKey: string
}

/**
 * Routes other Guard processes call with a service token (see signServiceToken), never users:
 * today the collector reading an organization's plan to enforce its limits.
 */
export function internalRoutes(app: GuardFastify, options: InternalOptions, log: Logger): void {
  app.get(
    '/api/v1/internal/organizations/:id/plan',
    {
      onRequest: async (request) => {
        const token = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]
        if (!token) throw new GuardError('UNAUTHORIZED', 'A service token is required')
        await verifyServiceToken(options.secretKey, token)
      },
      schema: {
        summary: "An organization's plan and its limits",
        description:
          "The catalog plan the organization is on with that plan's limits, or `plan: null` (no limits). The collector asks this to enforce plan limits and caches the answer for GUARD_PLAN_CACHE_SECONDS. 409 when the organization's plan is no longer in the catalog.",
        tags: ['internal'],
        security: [{ serviceToken: [] }],
        params: z.object({ id: z.string().min(1).max(128) }),
        response: { 200: organizationPlan, ...problemResponses(400, 401, 404, 409, 500) },
      },
    },
    async (request) => getOrganizationPlan(options.sql, log, request.params.id),
  )
}
