import { SECOND_FACTOR_PATH } from '../pages/pending-sign-in.ts'
import { SECURITY_PATH } from '../pages/return-to.ts'
import { hasSecondFactor, listFactors } from '../services/factors/list-factors.ts'
import { ACR_PHISHING_RESISTANT, satisfies } from '../services/factors/methods.ts'
import { requiredLevel } from '../services/factors/required-level.ts'
import type { Session } from '../services/sessions/find.ts'
import type { AuthorizationRequest } from './authorization-request.ts'
import type { OAuthContext } from './context.ts'

/**
 * Where a session too weak for this request goes before any code is issued: the second-factor
 * page when the user has a factor that suffices (step-up), else the security page to enrol one
 * (an organization's policy); undefined when the session suffices.
 */
export async function secondFactorRedirect(
  ctx: OAuthContext,
  session: Session,
  authorization: AuthorizationRequest,
  requestUrl: string,
): Promise<string | undefined> {
  const needed = await requiredLevel(ctx.sql, { userId: session.userId, requested: authorization.acr })
  if (satisfies(session.amr, needed)) return undefined
  const factors = await listFactors(ctx.sql, session.userId)
  const passkeyOnly = needed === ACR_PHISHING_RESISTANT
  const canProve = passkeyOnly ? factors.passkeys > 0 : hasSecondFactor(factors)
  const returnTo = new URLSearchParams({ return_to: requestUrl })
  if (!canProve) return `${SECURITY_PATH}?${returnTo}`
  if (passkeyOnly) returnTo.set('need', ACR_PHISHING_RESISTANT)
  return `${SECOND_FACTOR_PATH}?${returnTo}`
}
