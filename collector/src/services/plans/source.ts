import {
  GuardError,
  type Logger,
  type OrganizationPlan,
  organizationPlan,
  resolveSecretKey,
  signServiceToken,
} from '@guard/shared'
import { type CollectorEnv, identityCallUrl } from '../../env.ts'

/** Where the collector learns an organization's plan and that plan's limits. */
export interface PlanSource {
  planOf(organizationId: string): Promise<OrganizationPlan>
}

/** No identity configured: nobody has a plan, so nothing is limited (a bare self-hosted collector). */
export const noPlans: PlanSource = {
  planOf: async (organizationId) => ({ organizationId, plan: null }),
}

interface Cached {
  value: OrganizationPlan
  fetchedAt: number
}

const REQUEST_TIMEOUT_MS = 5000

/**
 * Asks identity (`GET /api/v1/internal/organizations/{id}/plan`, authorized by a one-minute
 * service token signed with a key derived from GUARD_SECRET_KEY) and keeps each answer for
 * `cacheSeconds`, so a plan change is enforced within that time. API keys and user tokens take
 * the same path, so both see the same plan. When identity cannot be reached, the last answer is
 * used for up to `staleSeconds` more; an organization never seen before gets 503 rather than
 * no limits, so an identity outage never lifts a plan.
 */
export function identityPlanSource(options: {
  identityUrl: string
  secretKey: string
  cacheSeconds: number
  staleSeconds?: number
  log: Logger
  now?: () => number
}): PlanSource {
  const now = options.now ?? Date.now
  const staleMs = (options.staleSeconds ?? 3600) * 1000
  const cache = new Map<string, Cached>()
  const inFlight = new Map<string, Promise<OrganizationPlan>>()

  async function fetchPlan(organizationId: string): Promise<OrganizationPlan> {
    const url = `${options.identityUrl}/api/v1/internal/organizations/${encodeURIComponent(organizationId)}/plan`
    const token = await signServiceToken(options.secretKey, 'collector')
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    // An organization identity does not know cannot have been given a plan.
    if (response.status === 404) return { organizationId, plan: null }
    if (response.status === 401) {
      throw new Error('identity refused the service token: identity and collector must share GUARD_SECRET_KEY')
    }
    if (!response.ok) {
      const detail = await response
        .json()
        .then((body) => (body as { detail?: string }).detail)
        .catch(() => undefined)
      throw new Error(`identity answered ${response.status}${detail ? `: ${detail}` : ''}`)
    }
    return organizationPlan.parse(await response.json())
  }

  async function refresh(organizationId: string): Promise<OrganizationPlan> {
    const cached = cache.get(organizationId)
    try {
      const value = await fetchPlan(organizationId)
      cache.set(organizationId, { value, fetchedAt: now() })
      return value
    } catch (error) {
      if (cached && now() - cached.fetchedAt < staleMs) {
        options.log.warn({ err: error, organizationId }, 'plan lookup failed; enforcing the last known plan')
        return cached.value
      }
      options.log.error({ err: error, organizationId }, 'plan lookup failed')
      throw new GuardError(
        'SERVICE_UNAVAILABLE',
        `The organization's plan could not be read from identity (${(error as Error).message}); try again shortly`,
      )
    }
  }

  return {
    async planOf(organizationId) {
      const cached = cache.get(organizationId)
      if (cached && now() - cached.fetchedAt < options.cacheSeconds * 1000) return cached.value
      // One request per organization at a time, however many writes arrive together.
      let pending = inFlight.get(organizationId)
      if (!pending) {
        pending = refresh(organizationId).finally(() => inFlight.delete(organizationId))
        inFlight.set(organizationId, pending)
      }
      return pending
    },
  }
}

/** Identity's plans when the collector knows identity (GUARD_IDENTITY_URL), none otherwise. */
export async function planSourceFromEnv(env: CollectorEnv, log: Logger): Promise<PlanSource> {
  const identityUrl = identityCallUrl(env)
  if (!identityUrl) return noPlans
  return identityPlanSource({
    identityUrl,
    secretKey: await resolveSecretKey(env),
    cacheSeconds: env.GUARD_PLAN_CACHE_SECONDS,
    log,
  })
}
