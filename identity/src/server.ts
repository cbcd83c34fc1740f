import { fileURLToPath } from 'node:url'
import {
  dependencyChecks,
  type Logger,
  listeningUrl,
  migrate,
  openRelationalStore,
  type RelationalStore,
  watchDependencies,
} from '@guard/shared'
import { buildIdentityApp } from './app.ts'
import type { IdentityEnv } from './env.ts'
import { mcpResourcesOf } from './oauth/resources.ts'
import { prepareOAuth } from './oauth/setup.ts'
import { platformOptionsFromEnv } from './routes/platform.ts'
import { ensureAdminToken } from './services/admin-tokens/ensure.ts'
import { seedCatalog } from './services/catalog/seed.ts'
import { seedChangelog } from './services/changelog/seed.ts'
import { syncEnvFederationProvider } from './services/federation/sync-env-provider.ts'
import { resolveSecretKey } from './services/keys/secret-key.ts'
import { type BootstrapAdmin, ensureDefaultOrganization } from './services/organizations/ensure-default.ts'
import { resolveDefaultPlan } from './services/plans/default-plan.ts'

export interface IdentityDeps {
  env: IdentityEnv
  log: Logger
  sql: RelationalStore
}

export interface RunningIdentity {
  url: string
  /** The OpenID issuer: GUARD_IDENTITY_URL, or `url` when that is unset. */
  issuer: string
  bootstrapAdmin: BootstrapAdmin | undefined
  /** The admin API token, set only on the start that created it (first start): saved to credentials.json. */
  adminToken: string | undefined
  /**
   * Whether GUARD_MCP_RESOURCES or GUARD_COLLECTOR_PUBLIC_URL named the MCP resources; when not, the
   * launcher names the collector it started beside identity with `serveMcpResourcesOf`.
   */
  mcpResourcesConfigured: boolean
  /** Issues tokens for the MCP endpoints of the collector at this base URL (RFC 8707 resources). */
  serveMcpResourcesOf(collectorUrl: string): void
  /** Where identity sends browsers to the console: GUARD_PUBLIC_URL, else GUARD_COLLECTOR_PUBLIC_URL. */
  consoleUrl: string | undefined
  /** Names the console of the collector started beside identity, unless the environment named one. */
  showConsoleAt(url: string): void
  close(): Promise<void>
}

export const IDENTITY_MIGRATIONS = {
  service: 'identity',
  directory: fileURLToPath(new URL('../migrations/postgres', import.meta.url)),
}

export const migrateIdentity = (sql: RelationalStore) => migrate(sql, IDENTITY_MIGRATIONS)

/** For admin commands: the migrated identity store, closed after `work`. */
export async function withIdentityStore<T>(env: IdentityEnv, work: (sql: RelationalStore) => Promise<T>): Promise<T> {
  const sql = await openRelationalStore({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.GUARD_DATA_DIR,
    pgliteSharedBuffers: env.GUARD_PGLITE_SHARED_BUFFERS,
  })
  try {
    await migrateIdentity(sql)
    return await work(sql)
  } finally {
    await sql.close()
  }
}

export async function startIdentity(deps: IdentityDeps): Promise<RunningIdentity> {
  await migrateIdentity(deps.sql)
  await seedCatalog(deps.sql)
  await seedChangelog(deps.sql)
  const defaultPlan = await resolveDefaultPlan(deps.sql, deps.log, deps.env)
  const bootstrapAdmin = await ensureDefaultOrganization(
    deps.sql,
    { email: deps.env.GUARD_ADMIN_EMAIL, password: deps.env.GUARD_ADMIN_PASSWORD },
    defaultPlan,
  )
  const adminToken = await ensureAdminToken(deps.sql)
  const oauth = await prepareOAuth({ ...deps, issuer: deps.env.GUARD_IDENTITY_URL ?? '' })
  await syncEnvFederationProvider(deps.sql, oauth.secrets.federationSecrets, deps.env)
  const dependencies = await watchDependencies({ relational: dependencyChecks.relational(deps.sql) })
  let consoleUrl = deps.env.GUARD_PUBLIC_URL ?? deps.env.GUARD_COLLECTOR_PUBLIC_URL
  const app = await buildIdentityApp({
    ...deps,
    consoleUrl: () => consoleUrl,
    oauth,
    platform: platformOptionsFromEnv(deps.sql, deps.env),
    dependencies,
    internal: { sql: deps.sql, secretKey: await resolveSecretKey(deps.env) },
    admin: { defaultPlan },
  })
  app.addHook('onClose', async () => dependencies.stop())
  await app.listen({ host: deps.env.GUARD_IDENTITY_HOST, port: deps.env.GUARD_IDENTITY_PORT })
  const url = listeningUrl(app)
  // Without GUARD_IDENTITY_URL the issuer is the address just bound (port 0 picks one at listen),
  // except a wildcard address, which no client can reach: then localhost, and a warning.
  if (!oauth.issuer) {
    const reachable = url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:)/, 'http://localhost')
    if (reachable !== url) {
      deps.log.warn({ listening: url, issuer: reachable }, 'set GUARD_IDENTITY_URL to the public URL of identity')
    }
    oauth.issuer = reachable
  }
  deps.log.info({ url }, 'identity listening')
  return {
    url,
    issuer: oauth.issuer,
    bootstrapAdmin,
    adminToken,
    mcpResourcesConfigured: oauth.resources.length > 0,
    serveMcpResourcesOf(collectorUrl) {
      oauth.resources = [...new Set([...oauth.resources, ...mcpResourcesOf(collectorUrl)])]
    },
    get consoleUrl() {
      return consoleUrl
    },
    showConsoleAt(url) {
      consoleUrl ??= url
    },
    close: () => app.close(),
  }
}
