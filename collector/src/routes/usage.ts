import type { GuardFastify } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { callerOf } from '../plugins/authenticate.ts'
import { getUsage, usageInput, usageView } from '../services/plans/usage.ts'
import { envelope, errorResponses, ok } from './common.ts'

export function usageRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    '/api/usage',
    {
      config: { access: { permission: 'domains:read' } },
      schema: {
        summary: "The organization's plan, its limits and current usage",
        description:
          "`organizationId` may name any of the caller's organizations (default: the current one). `plan: null` means no plan and no limits. The plan is read from identity and cached for GUARD_PLAN_CACHE_SECONDS.",
        querystring: usageInput,
        response: { 200: envelope(usageView), ...errorResponses },
      },
    },
    async (request) => ok(await getUsage({ ctx, caller: callerOf(request), input: request.query })),
  )
}
