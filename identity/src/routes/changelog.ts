import type { GuardFastify } from '@guard/shared'
import { z } from 'zod'
import { listChangelog } from '../services/changelog/list.ts'
import { CHANGELOG_LIMIT, changelogResponse, productSlug } from '../services/changelog/schema.ts'
import type { PlatformContext } from './context.ts'
import { problemResponses, withAlias } from './schemas.ts'

const query = z.object({
  app: productSlug.optional().describe('Only entries of this product'),
  limit: z.coerce
    .number({ error: `must be an integer from ${CHANGELOG_LIMIT.min} to ${CHANGELOG_LIMIT.max}` })
    .int(`must be an integer from ${CHANGELOG_LIMIT.min} to ${CHANGELOG_LIMIT.max}`)
    .min(CHANGELOG_LIMIT.min, `must be an integer from ${CHANGELOG_LIMIT.min} to ${CHANGELOG_LIMIT.max}`)
    .max(CHANGELOG_LIMIT.max, `must be an integer from ${CHANGELOG_LIMIT.min} to ${CHANGELOG_LIMIT.max}`)
    .optional()
    .describe(
      `How many entries, ${CHANGELOG_LIMIT.min} to ${CHANGELOG_LIMIT.max}; ${CHANGELOG_LIMIT.default} when omitted`,
    ),
  appsOnly: z.stringbool().optional().describe('When true, list the product slugs in `apps` instead of entries'),
})

export function changelogRoutes(app: GuardFastify, ctx: PlatformContext): void {
  for (const path of withAlias('/api/v1/changelog')) {
    app.get(
      path,
      {
        config: { rateLimit: 'count' },
        schema: {
          summary: 'Changelog',
          description:
            'Release notes newest first, Markdown content; deprecated operations are listed as entries of app `api`.',
          tags: ['api'],
          querystring: query,
          response: { 200: changelogResponse, ...problemResponses(400, 429, 500) },
        },
      },
      async (request) => listChangelog(ctx.sql, request.query, ctx.deprecations()),
    )
  }
}
