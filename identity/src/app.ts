import { createFastify, type Logger } from '@guard/shared'
import { healthRoutes } from './routes/health.ts'

/** Builds identity's HTTP app without listening, so tests can inject requests. */
export async function buildIdentityApp(deps: { log: Logger }) {
  const app = createFastify({ logger: deps.log })
  healthRoutes(app)
  return app
}
