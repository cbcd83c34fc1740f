import type { GuardFastify } from '@guard/shared'
import type { CollectorContext } from '../context.ts'
import { accountView } from '../integrations/list-accounts.ts'
import { webhostCAccountView, webhostCCallbackQuery } from '../integrations/schemas.ts'
import { CALLBACK_PATH, completeWebhostCLink } from '../integrations/webhost-c/authorize.ts'
import { envelope, errorSchema, ok, rateLimitedSchema } from './common.ts'

/**
 * webhost-c's (Vercel's) redirect target. The user's browser arrives here without a Guard token: the
 * single-use state is what authenticates the request; like every request without credentials, it
 * counts against the public limit of its client address.
 */
export function integrationCallbackRoutes(app: GuardFastify, ctx: CollectorContext): void {
  app.get(
    CALLBACK_PATH,
    {
      schema: {
        description:
          'Completes a Vercel (webhost-c) link (OAuth 2.0 redirect). Needs no token: the state from POST /api/webhost-c/accounts, usable once within 10 minutes, authenticates it. A missing, unknown, reused or expired state, or an error from Vercel, is a 400 and links nothing.',
        security: [],
        querystring: webhostCCallbackQuery,
        response: {
          200: envelope(webhostCAccountView),
          400: errorSchema,
          409: errorSchema,
          422: errorSchema,
          429: rateLimitedSchema,
          502: errorSchema,
          503: errorSchema,
        },
      },
    },
    async (request) => ok(accountView(webhostCAccountView)(await completeWebhostCLink({ ctx, input: request.query }))),
  )
}
