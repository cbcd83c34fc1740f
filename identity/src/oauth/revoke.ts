import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import { authenticateClient } from '../services/clients/authenticate.ts'
import { revokeToken } from '../services/tokens/revoke.ts'
import { clientCredentials } from './client-credentials.ts'
import type { OAuthContext } from './context.ts'
import { isForm } from './form-body.ts'
import { oauthJsonErrorHandler } from './json-errors.ts'
import { OAuthError } from './oauth-error.ts'
import { oauthErrorBody, revokeForm } from './schemas.ts'

export function revokeRoute(app: GuardFastify, ctx: OAuthContext): void {
  app.post(
    '/api/oauth/revoke',
    {
      schema: {
        summary: 'Token revocation (RFC 7009); 200 even for unknown tokens',
        tags: ['oauth'],
        consumes: ['application/x-www-form-urlencoded'],
        body: revokeForm,
        response: {
          200: z.strictObject({}),
          400: oauthErrorBody,
          401: oauthErrorBody,
          500: oauthErrorBody,
          503: oauthErrorBody,
        },
      },
      errorHandler: oauthJsonErrorHandler,
      preValidation: async (request) => {
        if (!isForm(request.headers['content-type'])) {
          throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded')
        }
      },
    },
    async (request) => {
      const client = await authenticateClient(ctx.sql, clientCredentials(request, request.body))
      await revokeToken(ctx.sql, ctx, client, request.body.token)
      return {}
    },
  )
}
