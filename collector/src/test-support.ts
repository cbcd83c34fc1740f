import { createInProcessBus, createLogger, guardStreams } from '@guard/shared'
import { openTestRelationalStore, openTestTimeSeriesStore } from '@guard/shared/testing'
import type { FastifyRequest } from 'fastify'
import type { Caller, CollectorContext } from './context.ts'
import { collectorEnvSchema } from './env.ts'
import { authenticate } from './plugins/authenticate.ts'
import { prepareCollector } from './server.ts'

/**
 * Integrations in tests: a fixed sealing key (no secret.key file in the working directory) and
 * every platform address on a closed local port, so no test can reach a real platform.
 */
const TEST_INTEGRATIONS_ENV = {
  GUARD_SECRET_KEY: 'test-secret-key-test-secret-key-test',
  GUARD_CLOUD_A_TOKEN_URL: 'http://127.0.0.1:9',
  GUARD_CLOUD_A_API_URL: 'http://127.0.0.1:9',
  GUARD_WEBHOST_C_AUTHORIZE_URL: 'http://127.0.0.1:9/oauth/authorize',
  GUARD_WEBHOST_C_TOKEN_URL: 'http://127.0.0.1:9/oauth/token',
  GUARD_WEBHOST_C_API_URL: 'http://127.0.0.1:9',
  GUARD_WEBHOST_C_CLIENT_ID: 'guard-test-client',
}

/** A collector context on real engines (PGlite from a template, a fresh chDB database), in process. */
export async function collectorForTest(envOverrides: Record<string, string> = {}) {
  const sql = await openTestRelationalStore()
  const timeseries = await openTestTimeSeriesStore()
  const bus = createInProcessBus({ streams: guardStreams })
  const env = collectorEnvSchema.parse({ ...TEST_INTEGRATIONS_ENV, GUARD_INGEST_MAX_WAIT_MS: '50', ...envOverrides })
  const log = createLogger({ name: 'collector-test', level: 'silent', pretty: false })
  const prepared = await prepareCollector({ env, log, sql, timeseries, bus })
  return {
    ...prepared,
    apiKey: prepared.created!.key,
    async close() {
      await bus.close()
      await timeseries.close()
      await sql.close()
    },
  }
}

/** A signed-in user of `organizationIds` (the first is their current one), as the JWT branch resolves them. */
export function userCaller(id: string, organizationIds: string[], permissions: string[] = ['*:*']): Caller {
  return { principal: { kind: 'user', id }, organizationId: organizationIds[0]!, organizationIds, permissions }
}

/**
 * The auth seam of buildCollectorApp: `Bearer user:<name>` resolves to the user registered under
 * that name, anything else goes through the production authentication.
 */
export function authenticateWithUsers(ctx: CollectorContext, users: Record<string, Caller>) {
  const production = authenticate(ctx)
  return async (request: FastifyRequest) => {
    const name = request.headers.authorization?.match(/^Bearer user:(\S+)$/)?.[1]
    const user = name ? users[name] : undefined
    if (user) {
      request.caller = user
      return
    }
    await production(request)
  }
}
