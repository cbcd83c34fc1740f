import type { FastifyInstance } from 'fastify'
import { pruneUnusedClients } from '../services/clients/prune-unused.ts'
import { pruneExpired } from '../services/tokens/prune.ts'
import type { OAuthContext } from './context.ts'

const EVERY_MS = 60 * 60 * 1000

/** Hourly cleanup of dead codes, tokens, sessions and unused registrations, stopped when the app closes. */
export function schedulePruning(app: FastifyInstance, ctx: OAuthContext): void {
  const timer = setInterval(() => {
    pruneExpired(ctx.sql)
      .then(() => pruneUnusedClients(ctx.sql))
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'pruning expired OAuth state failed'))
  }, EVERY_MS)
  // Never what keeps the process alive.
  timer.unref()
  app.addHook('onClose', async () => clearInterval(timer))
}
