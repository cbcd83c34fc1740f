import { GuardError, memberRole, signServiceToken } from '@guard/shared'

/** Where the collector learns a user's current role in an organization: identity, which owns memberships. */
export interface MembershipSource {
  /** The role now; null when the user is not a member, is disabled or no longer exists. */
  roleOf(organizationId: string, userId: string): Promise<string | null>
}

const REQUEST_TIMEOUT_MS = 5000

/**
 * Asks identity (`GET /api/v1/internal/organizations/{id}/members/{userId}`, authorized by a
 * service token, as plans are) on every call: the API key cache in front of it keeps answers for
 * at most the read-cache TTL. Identity unreachable is 503, never "still a member".
 */
export function identityMembershipSource(options: { identityUrl: string; secretKey: string }): MembershipSource {
  return {
    async roleOf(organizationId, userId) {
      const url = `${options.identityUrl}/api/v1/internal/organizations/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(userId)}`
      let response: Response
      try {
        response = await fetch(url, {
          headers: {
            authorization: `Bearer ${await signServiceToken(options.secretKey, 'collector')}`,
            accept: 'application/json',
          },
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        })
      } catch (error) {
        throw unavailable((error as Error).message)
      }
      if (!response.ok) throw unavailable(`identity answered ${response.status}`)
      const parsed = memberRole.safeParse(await response.json().catch(() => undefined))
      if (!parsed.success) throw unavailable('identity answered something that is not a membership')
      return parsed.data.role
    },
  }
}

const unavailable = (why: string) =>
  new GuardError(
    'SERVICE_UNAVAILABLE',
    `The API key's creator's membership could not be checked with identity (${why}); try again shortly`,
  )
