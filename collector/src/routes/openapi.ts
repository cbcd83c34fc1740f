import swagger from '@fastify/swagger'
import type { GuardFastify } from '@guard/shared'
import { transformObject } from './openapi-components.ts'
import { transform } from './openapi-transform.ts'

/**
 * Collects every route's zod schemas into an OpenAPI 3.1 document. Must be registered before the
 * routes, since it records them as they are added. A schema with an `id` (`.meta({ id })`, such as
 * each check protocol's configuration) is written once under `components.schemas` and referred to.
 */
export async function registerOpenApi(app: GuardFastify): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Guard monitoring API',
        version: '0.1.0',
        description:
          'Served by the collector. Every route except /api/health and /openapi.json takes `Authorization: Bearer` with an API key or a user JWT. Rate limits: X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (Unix time in seconds) on every authenticated response.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'API key (guard_…) or user JWT' },
          deviceToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'Agent token of one device (gdt_…), POST /agent only',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform,
    transformObject,
  })
}

/** GET /openapi.json, public like the health check. */
export function openApiRoute(app: GuardFastify): void {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
}
