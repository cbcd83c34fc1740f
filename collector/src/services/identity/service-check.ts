import { DEFAULT_ORGANIZATION, type DependencyCheck, type Logger, signServiceToken } from '@guard/shared'

/** Each health round would otherwise be one more request to identity every 2 s, from every replica. */
const ASK_EVERY_MS = 15_000
const REQUEST_TIMEOUT_MS = 1500

type Outcome = { up: true } | { up: false; why: string }

/**
 * Identity as the collector depends on it: its internal API answering the collector's service
 * token, which plan and membership lookups use. A 401 or 403 (the two hold different
 * GUARD_SECRET_KEYs) is as down as an identity that does not answer: every such lookup fails, so
 * writes answer 503 while the API otherwise looks healthy. The default organization's plan is the
 * question: it exists on every identity, and a 404 still proves the token was accepted.
 */
export function identityServiceCheck(options: {
  identityUrl: string
  secretKey: string
  log: Logger
  askEveryMs?: number
  now?: () => number
}): DependencyCheck {
  const now = options.now ?? Date.now
  const askEveryMs = options.askEveryMs ?? ASK_EVERY_MS
  let last: { outcome: Outcome; at: number } | undefined
  const ask = async (): Promise<Outcome> => {
    const url = `${options.identityUrl}/api/v1/internal/organizations/${encodeURIComponent(DEFAULT_ORGANIZATION.id)}/plan`
    try {
      const response = await fetch(url, {
        headers: {
          authorization: `Bearer ${await signServiceToken(options.secretKey, 'collector')}`,
          accept: 'application/json',
        },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
      await response.body?.cancel()
      if (response.status === 401 || response.status === 403)
        return {
          up: false,
          why: 'identity refuses the service token: identity and collector must share GUARD_SECRET_KEY',
        }
      if (response.ok || response.status === 404) return { up: true }
      return { up: false, why: `identity answered ${response.status}` }
    } catch (error) {
      return { up: false, why: `identity cannot be reached: ${(error as Error).message}` }
    }
  }
  return async () => {
    if (!last || now() - last.at >= askEveryMs) {
      const outcome = await ask()
      // Once per change, not every round: the reason is in the log, /api/health only says down.
      if (!outcome.up && (!last || last.outcome.up || last.outcome.why !== outcome.why))
        options.log.warn({ identityUrl: options.identityUrl }, outcome.why)
      else if (outcome.up && last && !last.outcome.up) options.log.info('identity accepts the service token again')
      last = { outcome, at: now() }
    }
    return last.outcome.up
  }
}
