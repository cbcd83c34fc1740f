import { parseIdentityEnv, startIdentity } from '@guard/identity'
import { closeAll, closeOnSignals, createLogger, openRelationalStore, redactConfig } from '@guard/shared'
import { announce } from './announce.ts'
import { exitOnPreflightError, preflight } from './preflight.ts'

export async function runIdentity(env: NodeJS.ProcessEnv = process.env) {
  const config = parseIdentityEnv(env)
  const lock = await preflight({
    command: 'identity',
    listeners: [{ name: 'identity', host: config.GUARD_IDENTITY_HOST, port: config.GUARD_IDENTITY_PORT }],
    // Replicas on one PostgreSQL may share a directory for the secret key; PGlite may not be shared.
    dataDir: config.DATABASE_URL ? undefined : config.GUARD_DATA_DIR,
  }).catch(exitOnPreflightError)
  const log = createLogger({ name: 'identity', level: config.LOG_LEVEL })
  log.info({ config: redactConfig(config) }, 'configuration')
  const sql = await openRelationalStore({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.GUARD_DATA_DIR,
    pgliteSharedBuffers: config.GUARD_PGLITE_SHARED_BUFFERS,
  })
  const identity = await startIdentity({ env: config, log, sql })
  await announce(
    config.GUARD_DATA_DIR,
    {
      // In a container this is where the operator finds the admin's first password, so it says where to use it.
      ...(identity.consoleUrl
        ? {
            console: { url: identity.consoleUrl, signInAs: identity.bootstrapAdmin?.email ?? config.GUARD_ADMIN_EMAIL },
          }
        : {}),
      identity: identity.url,
    },
    {
      ...(identity.bootstrapAdmin ? { admin: identity.bootstrapAdmin } : {}),
      ...(identity.adminToken ? { adminToken: identity.adminToken } : {}),
    },
  )
  closeOnSignals(log, () =>
    closeAll(log, [
      ['identity', () => identity.close()],
      ['sql', () => sql.close()],
      ['data directory lock', async () => lock?.release()],
    ]),
  )
}
