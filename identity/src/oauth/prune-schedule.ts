import type { FastifyInstance } from 'fastify'
import { pruneExpired } from '../services/tokens/prune.ts'
import type { OAuthContext } from './context.ts'

const EVERY_MS = 60 * 60 * 1000

/** Hourly cleanup of dead codes, tokens and sessions, stopped when the app closes. */
export function schedulePruning(app: FastifyInstance, ctx: OAuthContext): void {
  const timer = setInterval(() => {
    pruneExpired(ctx.sql).catch((error: unknown) => ctx.log.warn({ err: error }, 'pruning expired OAuth state failed'))
  }, EVERY_MS)
  // Never what keeps the process alive.
  timer.unref()
  app.addHook('onClose', async () => clearInterval(timer))
}
