import { hostname, userInfo } from 'node:os'
import { createLogger } from '@guard/shared'
import type { FastifyInstance } from 'fastify'
import { buildIdentityApp } from '../app.ts'
import type { IdentityEnv } from '../env.ts'
import { prepareOAuth } from '../oauth/setup.ts'
import { withIdentityStore } from '../server.ts'
import { resolveDefaultPlan } from '../services/plans/default-plan.ts'

/**
 * The admin API without a server, for the CLI when no identity answers: the app is built over the
 * store this process opens (under the data directory's lock) and requests are injected, so they
 * take exactly the path of the HTTP API, audit log included, as the local operator.
 */
export async function withLocalAdminApp<T>(env: IdentityEnv, work: (app: FastifyInstance) => Promise<T>): Promise<T> {
  return withIdentityStore(env, async (sql) => {
    const log = createLogger({ name: 'identity-admin', level: 'silent', pretty: false })
    const oauth = await prepareOAuth({ sql, log, env, issuer: env.GUARD_IDENTITY_URL ?? 'http://localhost' })
    const app = await buildIdentityApp({
      log,
      oauth,
      admin: {
        localOperator: {
          type: 'local',
          id: undefined,
          label: `guard CLI (${userInfo().username}@${hostname()}, store opened directly)`,
        },
        defaultPlan: await resolveDefaultPlan(sql, log, env),
      },
    })
    try {
      await app.ready()
      return await work(app)
    } finally {
      await app.close()
    }
  })
}
