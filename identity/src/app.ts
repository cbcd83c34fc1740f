import { createFastify, type Logger } from '@guard/shared'
import { registerProblemErrors } from './plugins/problem.ts'
import { healthRoutes } from './routes/health.ts'

/** Builds identity's HTTP app without listening, so tests can inject requests. */
export async function buildIdentityApp(deps: { log: Logger }) {
  const app = createFastify({ logger: deps.log })
  registerProblemErrors(app)
  healthRoutes(app)
  return app
}
