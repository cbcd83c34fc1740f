import type { GuardFastify } from '@guard/shared'
import { getCatalog } from '../services/catalog/get.ts'
import { catalogResponse } from '../services/catalog/schema.ts'
import type { PlatformContext } from './context.ts'
import { problemResponses, withAlias } from './schemas.ts'

export function plansRoutes(app: GuardFastify, ctx: PlatformContext): void {
  for (const path of withAlias('/api/v1/plans')) {
    app.get(
      path,
      {
        config: { rateLimit: 'count' },
        schema: {
          summary: 'Plan catalog',
          description:
            'Plans, add-ons, bundles, features and per-plan add-on caps. `source` is `static` when the database is unreachable and the bundled catalog answers.',
          tags: ['api'],
          response: { 200: catalogResponse, ...problemResponses(429, 500) },
        },
      },
      async () => getCatalog(ctx.sql, ctx.log),
    )
  }
}
