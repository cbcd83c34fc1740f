import { createFastify } from '@guard/shared'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { CollectorContext } from './context.ts'
import { authenticate } from './plugins/authenticate.ts'
import { registerErrorHandling } from './plugins/errors.ts'
import { domainRoutes } from './routes/domains.ts'
import { healthRoutes } from './routes/health.ts'

/** Builds the collector's HTTP app without listening, so tests can inject requests. */
export async function buildCollectorApp(ctx: CollectorContext) {
  const app = createFastify({ logger: ctx.log })
  app.decorateRequest('caller', undefined)
  registerErrorHandling(app)
  healthRoutes(app)
  await app.register(async (secured) => {
    secured.addHook('preHandler', authenticate(ctx))
    domainRoutes(secured.withTypeProvider<ZodTypeProvider>(), ctx)
  })
  return app
}
