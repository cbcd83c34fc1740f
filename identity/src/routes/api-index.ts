import type { GuardFastify } from '@guard/shared'
import { apiIndex, buildApiIndex } from '../services/docs/api-index.ts'
import { baseUrl, type PlatformContext } from './context.ts'
import { problemResponses } from './schemas.ts'

export function apiIndexRoutes(app: GuardFastify, ctx: PlatformContext): void {
  for (const path of ['/api/v1', '/api']) {
    app.get(
      path,
      {
        config: { rateLimit: 'count' },
        schema: {
          summary: 'API index',
          description: 'Endpoints, versioning policy, error format and rate limit.',
          tags: ['api'],
          response: { 200: apiIndex, ...problemResponses(429, 500) },
        },
      },
      async (request) => buildApiIndex(baseUrl(ctx, request), ctx.rateLimit),
    )
  }
}
