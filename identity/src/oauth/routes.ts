import type { GuardFastify } from '@guard/shared'
import { accountPages } from '../pages/account.ts'
import { consentPages } from '../pages/consent.ts'
import { federationPages } from '../pages/federation.ts'
import { invitationPages } from '../pages/invitation.ts'
import { passkeyAssets } from '../pages/passkey-assets.ts'
import { passkeyRoutes } from '../pages/passkey-routes.ts'
import { secondFactorPages } from '../pages/second-factor.ts'
import { securityPages } from '../pages/security.ts'
import { signInPages } from '../pages/sign-in.ts'
import { authorizeRoute } from './authorize.ts'
import type { OAuthContext } from './context.ts'
import { oauthCors } from './cors.ts'
import { discoveryRoute } from './discovery.ts'
import { registerFormBody } from './form-body.ts'
import { jwksRoute } from './jwks.ts'
import { logoutRoutes } from './logout.ts'
import { schedulePruning } from './prune-schedule.ts'
import { registrationRoute } from './register.ts'
import { revokeRoute } from './revoke.ts'
import { tokenRoute } from './token.ts'
import { userinfoRoutes } from './userinfo.ts'

/** The OpenID provider: discovery, keys, the protocol endpoints and the sign-in and consent pages. */
export async function oauthRoutes(app: GuardFastify, ctx: OAuthContext): Promise<void> {
  // Encapsulated, so the form parser applies to these routes only.
  await app.register(async (oauth) => {
    registerFormBody(oauth)
    oauthCors(oauth)
    discoveryRoute(oauth, ctx)
    jwksRoute(oauth, ctx)
    authorizeRoute(oauth, ctx)
    tokenRoute(oauth, ctx)
    registrationRoute(oauth, ctx)
    userinfoRoutes(oauth, ctx)
    revokeRoute(oauth, ctx)
    logoutRoutes(oauth, ctx)
    signInPages(oauth, ctx)
    federationPages(oauth, ctx)
    consentPages(oauth, ctx)
    invitationPages(oauth, ctx)
    accountPages(oauth, ctx)
    secondFactorPages(oauth, ctx)
    securityPages(oauth, ctx)
    passkeyRoutes(oauth, ctx)
    passkeyAssets(oauth)
    schedulePruning(oauth, ctx)
  })
}
