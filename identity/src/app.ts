import { createFastify, type DependencyWatch, type Logger } from '@guard/shared'
import { accountRoutes } from './account/routes.ts'
import { type AdminOptions, adminRoutes } from './admin/routes.ts'
import { federationRoutes } from './federation/routes.ts'
import { invitationRoutes } from './invitations/routes.ts'
import type { OAuthContext } from './oauth/context.ts'
import { oauthRoutes } from './oauth/routes.ts'
import { organizationRoutes } from './organizations/routes.ts'
import { organizationSecondFactorRoutes } from './organizations/second-factor-routes.ts'
import { browserNotFound } from './pages/landing.ts'
import { registerDeprecations } from './plugins/deprecation.ts'
import { registerOpenApi } from './plugins/openapi.ts'
import { registerProblemErrors } from './plugins/problem.ts'
import { registerRateLimit } from './plugins/rate-limit.ts'
import { healthRoutes } from './routes/health.ts'
import { type InternalOptions, internalRoutes } from './routes/internal.ts'
import { type PlatformOptions, platformRoutes } from './routes/platform.ts'

/**
 * Builds identity's HTTP app without listening, so tests can inject requests. Without `oauth`
 * (tests of the stateless routes) the OpenID provider is not mounted; without `platform`, the
 * catalog, changelog, discovery and MCP routes are not; without `internal`, the service-to-service ones.
 */
export async function buildIdentityApp(deps: {
  log: Logger
  oauth?: OAuthContext
  platform?: PlatformOptions
  dependencies?: DependencyWatch
  internal?: InternalOptions
  admin?: AdminOptions
  /** Where browsers that open identity's root are sent; with the OAuth pages only, which have a sign-in. */
  consoleUrl?: () => string | undefined
}) {
  const app = createFastify({ logger: deps.log, trustProxy: deps.platform?.trustedProxies ?? false })
  registerProblemErrors(
    app,
    deps.oauth ? { browserNotFound: browserNotFound(deps.consoleUrl ?? (() => undefined)) } : {},
  )
  const deprecations = registerDeprecations(app)
  registerRateLimit(app, deps.platform?.rateLimit)
  // Before every route, so each one (OAuth's too) lands in the OpenAPI document.
  await registerOpenApi(app)
  healthRoutes(app, deps.dependencies)
  if (deps.platform) platformRoutes(app, deps.platform, { log: deps.log, deprecations })
  if (deps.oauth) {
    await oauthRoutes(app, deps.oauth)
    await adminRoutes(app, deps.oauth, deps.admin)
    await accountRoutes(app, deps.oauth)
    await invitationRoutes(app, deps.oauth)
    await organizationRoutes(app, deps.oauth)
    await federationRoutes(app, deps.oauth, deps.admin)
    await organizationSecondFactorRoutes(app, deps.oauth)
  }
  if (deps.internal) internalRoutes(app, deps.internal, deps.log)
  return app
}
