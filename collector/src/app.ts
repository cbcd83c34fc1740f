import { createHash } from 'node:crypto'
import { createFastify, type DependencyWatch, dependencyChecks, watchDependencies } from '@guard/shared'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { consoleAuthRoutes } from './console/auth-routes.ts'
import { type ConsoleAuth, createConsoleAuth } from './console/bff.ts'
import { consoleStaticRoutes } from './console/static.ts'
import type { CollectorContext } from './context.ts'
import { createIngestMetrics } from './ingest/metrics.ts'
import type { IngestWatch } from './ingest/watch.ts'
import { authorize, publicRateLimit, rateLimit, rateLimitHeadersOnEveryResponse } from './plugins/access.ts'
import { authenticate } from './plugins/authenticate.ts'
import { registerErrorHandling } from './plugins/errors.ts'
import { releaseAbandonedMisses, serveCachedReads, storeCachedReads } from './plugins/read-cache.ts'
import { customDomainRewrite, statusPageAccess } from './plugins/status-page-access.ts'
import { acknowledgeLinkRoutes } from './routes/acknowledge-link.ts'
import { agentRoutes } from './routes/agent.ts'
import { apiKeyRoutes } from './routes/api-keys.ts'
import { chatRoutes } from './routes/chat.ts'
import { configRoutes, guardSchemaRoute } from './routes/config.ts'
import { dashboardRoutes } from './routes/dashboard.ts'
import { deadLetterRoutes } from './routes/dead-letters.ts'
import { dependencyRoutes } from './routes/dependencies.ts'
import { deviceRoutes } from './routes/devices.ts'
import { domainRoutes } from './routes/domains.ts'
import { eventStreamRoutes } from './routes/events-stream.ts'
import { groupRoutes } from './routes/groups.ts'
import { healthRoutes } from './routes/health.ts'
import { heartbeatRoutes } from './routes/heartbeats.ts'
import { incidentRoutes } from './routes/incidents.ts'
import { integrationRoutes } from './routes/integrations.ts'
import { integrationCallbackRoutes } from './routes/integrations-callback.ts'
import { maintenanceWindowRoutes } from './routes/maintenance-windows.ts'
import { mcpRoutes } from './routes/mcp.ts'
import { metricsRoutes } from './routes/metrics.ts'
import { monitorRoutes } from './routes/monitors.ts'
import { notificationChannelRoutes } from './routes/notification-channels.ts'
import { notificationRoutes } from './routes/notifications.ts'
import { openApiRoute, registerOpenApi } from './routes/openapi.ts'
import { organizationRoutes } from './routes/organization.ts'
import { pingRoutes } from './routes/ping.ts'
import { recentCheckRoutes } from './routes/recent-checks.ts'
import { reportRoutes } from './routes/reports.ts'
import { serviceRoutes } from './routes/services.ts'
import { sloRoutes } from './routes/slos.ts'
import { statusPageAccessRoutes, statusPageGateRoutes } from './routes/status-page-access.ts'
import { statusPageHistoryRoutes } from './routes/status-page-history.ts'
import { publicSubscriberRoutes, statusPageSubscriberRoutes } from './routes/status-page-subscribers.ts'
import { publicStatusPageRoutes, statusPageHtmlRoutes, statusPageRoutes } from './routes/status-pages.ts'
import { syntheticRoutes } from './routes/synthetics.ts'
import { tagRoutes } from './routes/tags.ts'
import { toolboxRoutes } from './routes/toolbox.ts'
import { usageRoutes } from './routes/usage.ts'
import { loadCustomDomains } from './services/status-pages/custom-domains.ts'

export interface CollectorAppOptions {
  /** The registry GET /metrics serves; the running collector passes its ingest's. */
  metrics?: ReturnType<typeof createIngestMetrics>['registry']
  /** Replaces how callers are resolved: the seam tests use to act as a signed-in user. */
  authenticate?: ReturnType<typeof authenticate>
  /** What /api/health reports; by default a watch of the context's bus and stores, stopped with the app. */
  dependencies?: DependencyWatch
  /** The running collector's ingest consumers, whose stalls /api/health reports. */
  ingest?: IngestWatch
  /**
   * The web console's sign-in (BFF); the running collector passes one bound to identity. Without it
   * the console's routes exist but cannot sign anyone in.
   */
  console?: ConsoleAuth
}

/** The console without an identity to sign in with: every page says so, nobody is signed in. */
function consoleWithoutIdentity(ctx: CollectorContext): ConsoleAuth {
  return createConsoleAuth({
    sql: ctx.sql,
    log: ctx.log,
    sealKey: createHash('sha256').update(ctx.sealKey).update('console sessions').digest(),
    oidc: undefined,
    publicUrl: () => ctx.env.GUARD_PUBLIC_URL ?? 'http://localhost',
    sessionSeconds: ctx.env.GUARD_CONSOLE_SESSION_HOURS * 3600,
  })
}

/**
 * Builds the collector's HTTP app without listening, so tests can inject requests. Authentication,
 * rate limiting and authorization run on request, before the body is parsed and validated, so a
 * caller without access learns nothing from validation errors.
 */
export async function buildCollectorApp(ctx: CollectorContext, options: CollectorAppOptions = {}) {
  await loadCustomDomains(ctx)
  const app = createFastify({
    logger: ctx.log,
    trustProxy: ctx.env.GUARD_TRUSTED_PROXIES.length > 0 ? ctx.env.GUARD_TRUSTED_PROXIES : false,
    rewriteUrl: customDomainRewrite(ctx),
  })
  app.decorateRequest('caller', undefined)
  app.decorateRequest('stillAuthorized', undefined)
  app.decorateRequest('readCacheMiss', undefined)
  registerErrorHandling(app)
  const consoleAuth = options.console ?? consoleWithoutIdentity(ctx)
  // Before authentication: a console request gets its session's access token as Authorization.
  app.addHook('onRequest', consoleAuth.attachSession)
  app.addHook('onRequest', publicRateLimit(ctx))
  app.addHook('onSend', rateLimitHeadersOnEveryResponse(ctx))
  const pageAccess = statusPageAccess(ctx, consoleAuth)
  app.addHook('preHandler', pageAccess.preHandler)
  app.addHook('onSend', pageAccess.onSend)
  await registerOpenApi(app)
  const dependencies =
    options.dependencies ??
    (await watchDependencies({
      bus: dependencyChecks.bus(ctx.bus),
      relational: dependencyChecks.relational(ctx.sql),
      timeseries: dependencyChecks.timeseries(ctx.timeseries),
      ...(ctx.identityCheck ? { identity: ctx.identityCheck } : {}),
    }))
  if (!options.dependencies) app.addHook('onClose', async () => dependencies.stop())
  healthRoutes(app, dependencies, options.ingest)
  openApiRoute(app)
  guardSchemaRoute(app)
  integrationCallbackRoutes(app.withTypeProvider<ZodTypeProvider>(), ctx)
  await agentRoutes(app, ctx)
  await pingRoutes(app, ctx)
  await deadLetterRoutes(app, ctx)
  publicStatusPageRoutes(app, ctx)
  statusPageHtmlRoutes(app, ctx)
  await statusPageGateRoutes(app, ctx, consoleAuth)
  statusPageHistoryRoutes(app, ctx)
  publicSubscriberRoutes(app, ctx)
  acknowledgeLinkRoutes(app, ctx)
  mcpRoutes(app, ctx)
  await consoleAuthRoutes(app, consoleAuth)
  consoleStaticRoutes(app, { identityUrl: ctx.env.GUARD_IDENTITY_URL })
  await app.register(async (secured) => {
    secured.addHook('onRequest', options.authenticate ?? authenticate(ctx))
    secured.addHook('onRequest', rateLimit(ctx))
    secured.addHook('onRequest', authorize)
    secured.addHook('onRequest', serveCachedReads(ctx))
    secured.addHook('onSend', storeCachedReads(ctx))
    secured.addHook('onResponse', releaseAbandonedMisses(ctx))
    secured.addHook('onRequestAbort', releaseAbandonedMisses(ctx))
    const routes = secured.withTypeProvider<ZodTypeProvider>()
    domainRoutes(routes, ctx)
    serviceRoutes(routes, ctx)
    syntheticRoutes(routes, ctx)
    heartbeatRoutes(routes, ctx)
    deviceRoutes(routes, ctx)
    monitorRoutes(routes, ctx)
    groupRoutes(routes, ctx)
    tagRoutes(routes, ctx)
    dependencyRoutes(routes, ctx)
    recentCheckRoutes(routes, ctx)
    statusPageRoutes(routes, ctx)
    statusPageAccessRoutes(routes, ctx)
    statusPageSubscriberRoutes(routes, ctx)
    dashboardRoutes(routes, ctx)
    reportRoutes(routes, ctx)
    sloRoutes(routes, ctx)
    chatRoutes(routes, ctx)
    apiKeyRoutes(routes, ctx)
    incidentRoutes(routes, ctx)
    maintenanceWindowRoutes(routes, ctx)
    await configRoutes(routes, ctx)
    notificationRoutes(routes, ctx)
    notificationChannelRoutes(routes, ctx)
    eventStreamRoutes(routes, ctx)
    integrationRoutes(routes, ctx)
    usageRoutes(routes, ctx)
    organizationRoutes(routes, ctx)
    toolboxRoutes(routes, ctx)
    metricsRoutes(routes, ctx, options.metrics ?? createIngestMetrics().registry)
  })
  return app
}
