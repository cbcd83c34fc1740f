import type { GuardFastify } from '@guard/shared'
import { authenticateClient } from '../services/clients/authenticate.ts'
import { exchangeCode } from '../services/tokens/exchange-code.ts'
import { refreshTokens } from '../services/tokens/refresh.ts'
import { clientCredentials } from './client-credentials.ts'
import type { OAuthContext } from './context.ts'
import { isForm } from './form-body.ts'
import { oauthJsonErrorHandler } from './json-errors.ts'
import { OAuthError } from './oauth-error.ts'
import { oauthErrorBody, tokenForm, tokenResponse } from './schemas.ts'

export function tokenRoute(app: GuardFastify, ctx: OAuthContext): void {
  app.post(
    '/api/oauth/token',
    {
      schema: {
        summary: 'Token endpoint: authorization_code and refresh_token grants',
        tags: ['oauth'],
        consumes: ['application/x-www-form-urlencoded'],
        body: tokenForm,
        response: {
          200: tokenResponse,
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
    async (request, reply) => {
      const form = request.body
      const client = await authenticateClient(ctx.sql, clientCredentials(request, form))
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache')
      if (form.grant_type === 'authorization_code') {
        return exchangeCode(ctx.sql, ctx, client, {
          code: form.code,
          redirectUri: form.redirect_uri,
          codeVerifier: form.code_verifier,
          resource: form.resource,
        })
      }
      if (form.grant_type === 'refresh_token') {
        return refreshTokens(ctx.sql, ctx, client, {
          refreshToken: form.refresh_token,
          scope: form.scope,
          resource: form.resource,
        })
      }
      throw new OAuthError('unsupported_grant_type', `grant_type ${form.grant_type} is not supported`)
    },
  )
}
