import type { DependencyWatch, GuardFastify, RelationalStore } from '@guard/shared'
import {
  createLogger,
  dependencyChecks,
  listeningUrl,
  openMigratedTestRelationalStore,
  watchDependencies,
} from '@guard/shared'
import { buildIdentityApp } from '../app.ts'
import { prepareOAuth } from '../oauth/setup.ts'
import { IDENTITY_MIGRATIONS } from '../server.ts'
import { seedCatalog } from '../services/catalog/seed.ts'
import { seedChangelog } from '../services/changelog/seed.ts'
import type { PlatformOptions } from './platform.ts'

export interface PlatformTestIdentity {
  url: string
  app: GuardFastify
  sql: RelationalStore
  dependencies: DependencyWatch
  close(): Promise<void>
}

/**
 * A listening identity on 127.0.0.1 over an in-memory PGlite with the example catalog and
 * changelog, the OpenID provider mounted too (so the OpenAPI document is the whole service's).
 * `extend` adds routes before the app is ready, as a later feature would.
 */
export async function startPlatformIdentity(
  options: Omit<Partial<PlatformOptions>, 'sql'> & { extend?: (app: GuardFastify) => void } = {},
): Promise<PlatformTestIdentity> {
  const { extend, ...platform } = options
  const sql = await openMigratedTestRelationalStore([IDENTITY_MIGRATIONS])
  await seedCatalog(sql)
  await seedChangelog(sql)
  const log = createLogger({ name: 'identity-test', level: 'silent', pretty: false })
  const oauth = await prepareOAuth({
    sql,
    log,
    env: { GUARD_SECRET_KEY: 'test-secret-key-test-secret-key-test', GUARD_DATA_DIR: '/nonexistent' },
    issuer: '',
  })
  const dependencies = await watchDependencies({ relational: dependencyChecks.relational(sql) })
  const app = await buildIdentityApp({ log, oauth, platform: { sql, ...platform }, dependencies })
  app.addHook('onClose', async () => dependencies.stop())
  try {
    extend?.(app)
    await app.listen({ host: '127.0.0.1', port: 0 })
  } catch (error) {
    await app.close()
    await sql.close()
    throw error
  }
  const url = listeningUrl(app)
  oauth.issuer = url
  return {
    url,
    app,
    sql,
    dependencies,
    async close() {
      await app.close()
      await sql.close().catch(() => undefined)
    },
  }
}
