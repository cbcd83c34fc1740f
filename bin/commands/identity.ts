import { parseIdentityEnv, startIdentity } from '@guard/identity'
import { closeAll, closeOnSignals, createLogger, openRelationalStore, redactConfig } from '@guard/shared'
import { announce } from './announce.ts'

export async function runIdentity(env: NodeJS.ProcessEnv = process.env) {
  const config = parseIdentityEnv(env)
  const log = createLogger({ name: 'identity', level: config.LOG_LEVEL })
  log.info({ config: redactConfig(config) }, 'configuration')
  const sql = await openRelationalStore({ databaseUrl: config.DATABASE_URL, dataDir: config.GUARD_DATA_DIR })
  const identity = await startIdentity({ env: config, log, sql })
  await announce(
    config.GUARD_DATA_DIR,
    { identity: identity.url },
    identity.bootstrapAdmin ? { admin: identity.bootstrapAdmin } : {},
  )
  closeOnSignals(log, () =>
    closeAll(log, [
      ['identity', () => identity.close()],
      ['sql', () => sql.close()],
    ]),
  )
}
