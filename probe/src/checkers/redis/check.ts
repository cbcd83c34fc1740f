import { isRedisReadCommand } from '@guard/shared'
import type { Checker } from '../../checker.ts'
import type { QueryAnswer } from '../database/answer.ts'
import { type DatabaseDriver, runDatabaseCheck } from '../database/run.ts'

type RedisTarget = Parameters<Checker<'redis'>['check']>[0]

/** Redis refuses credentials with these reply prefixes, and asks for them with NOAUTH. */
const AUTH_REPLY = /^(WRONGPASS|NOAUTH|ERR AUTH|ERR invalid password)/

/** A list reply counts its items, nil none, any other reply one. */
function answerOf(reply: unknown): QueryAnswer {
  if (Array.isArray(reply))
    return { rowCount: reply.length, ...(reply.length > 0 ? { first: { value: reply[0] } } : {}) }
  return { rowCount: reply === null ? 0 : 1, first: { value: reply } }
}

/** The driver, once a check has loaded it: its ErrorReply tells a server's answer from a broken connection. */
let driver: typeof import('redis') | undefined

const redisDriver: DatabaseDriver<RedisTarget> = {
  defaultPort: 6379,
  async connect(target, { vetted, port, tls }, context) {
    const command = target.command ?? ['PING']
    // The schema refuses writing commands; a target that did not come through it is refused too.
    if (!isRedisReadCommand(command)) throw new Error(`refused: ${command[0]} is not a read-only command`)
    driver ??= await import('redis')
    const connectTimeout = Math.max(1, Math.ceil(context.timeoutMs))
    const client = driver.createClient({
      socket: tls
        ? { host: vetted.address, port, connectTimeout, reconnectStrategy: false, tls: true, ...tls.options }
        : { host: vetted.address, port, connectTimeout, reconnectStrategy: false },
      ...(target.username ? { username: target.username } : {}),
      ...(target.secrets?.password ? { password: target.secrets.password } : {}),
      ...(target.database ? { database: target.database } : {}),
      disableClientInfo: true,
    })
    client.on('error', () => undefined)
    try {
      await client.connect()
    } catch (error) {
      client.destroy()
      throw error
    }
    return {
      query: async () => answerOf(await client.sendCommand(command)),
      close: () => client.destroy(),
    }
  },
  isAuthFailure: (error) => error instanceof Error && AUTH_REPLY.test(error.message),
  isQueryFailure: (error) => driver !== undefined && error instanceof driver.ErrorReply,
}

/** Redis: signs in, sends `PING` or the monitor's read-only command, asserts its reply. */
export const redisChecker: Checker<'redis'> = {
  kind: 'redis',
  check: (target, context) => runDatabaseCheck(target, context, redisDriver),
}
