import { isIP } from 'node:net'
import type { MongoQuery } from '@guard/shared'
import type { Checker } from '../../checker.ts'
import type { QueryAnswer } from '../database/answer.ts'
import { type DatabaseDriver, runDatabaseCheck } from '../database/run.ts'

type MongodbTarget = Parameters<Checker<'mongodb'>['check']>[0]
type MongoModule = typeof import('mongodb')
type MongoDocument = Record<string, unknown>

/** MongoDB's AuthenticationFailed. */
const AUTHENTICATION_FAILED = 18

/** The driver, once a check has loaded it: its error classes tell the server's answers apart. */
let driver: MongoModule | undefined

/** The first field other than `_id`, which every document has and says nothing about the data. */
function firstValue(document: MongoDocument | null | undefined): QueryAnswer['first'] {
  if (!document) return undefined
  const entry = Object.entries(document).find(([key]) => key !== '_id') ?? Object.entries(document)[0]
  return entry ? { value: entry[1] } : undefined
}

/**
 * Reads only what the assertions need: the count (`countDocuments`, or `$count` after the
 * pipeline) for `expectRows`, the first document otherwise. Without `expectRows` the row count is
 * whether there was a first document, which nothing asserts.
 */
async function read(db: import('mongodb').Db, query: MongoQuery, countRows: boolean): Promise<QueryAnswer> {
  const collection = db.collection(query.collection)
  const pipeline = query.pipeline ?? []
  const filter = query.filter ?? {}
  const firstDocument = () =>
    query.pipeline
      ? collection.aggregate<MongoDocument>([...pipeline, { $limit: 1 }]).next()
      : collection.findOne<MongoDocument>(filter)
  if (!countRows) {
    const first = firstValue(await firstDocument())
    return { rowCount: first ? 1 : 0, ...(first ? { first } : {}) }
  }
  const rowCount = query.pipeline
    ? Number((await collection.aggregate<MongoDocument>([...pipeline, { $count: 'rows' }]).next())?.rows ?? 0)
    : await collection.countDocuments(filter)
  const first = rowCount > 0 ? firstValue(await firstDocument()) : undefined
  return { rowCount, ...(first ? { first } : {}) }
}

const mongodbDriver: DatabaseDriver<MongodbTarget> = {
  defaultPort: 27017,
  async connect(target, { vetted, port, tls }, context) {
    driver ??= await import('mongodb')
    const timeoutMs = Math.max(1, Math.ceil(context.timeoutMs))
    const host = isIP(vetted.address) === 6 ? `[${vetted.address}]` : vetted.address
    const password = target.secrets?.password
    const client = new driver.MongoClient(`mongodb://${host}:${port}/`, {
      directConnection: true,
      serverSelectionTimeoutMS: timeoutMs,
      connectTimeoutMS: timeoutMs,
      socketTimeoutMS: timeoutMs,
      maxPoolSize: 1,
      appName: 'guard-probe',
      ...(target.username
        ? {
            auth: { username: target.username, ...(password ? { password } : {}) },
            authSource: target.authSource ?? 'admin',
          }
        : {}),
      ...(tls ? { tls: true, ...tls.options } : {}),
    })
    // Server selection retries a refused connection until its timeout; the first failed
    // heartbeat already says why, so the check ends there.
    const unreachable = new Promise<never>((_, reject) => {
      client.once('serverHeartbeatFailed', (event) => reject(event.failure))
    })
    unreachable.catch(() => undefined)
    try {
      await Promise.race([client.connect(), unreachable])
    } catch (error) {
      client.close().catch(() => undefined)
      throw error
    }
    return {
      query: async () =>
        target.query
          ? read(client.db(target.query.database), target.query, target.expectRows !== undefined)
          : { rowCount: 1, first: firstValue(await client.db('admin').command({ ping: 1 })) },
      close: () => {
        client.close().catch(() => undefined)
      },
    }
  },
  isAuthFailure: (error) =>
    driver !== undefined && error instanceof driver.MongoServerError && error.code === AUTHENTICATION_FAILED,
  isQueryFailure: (error) => driver !== undefined && error instanceof driver.MongoServerError,
}

/** MongoDB: signs in, runs `ping` or the monitor's find, count or aggregate, asserts its answer. */
export const mongodbChecker: Checker<'mongodb'> = {
  kind: 'mongodb',
  check: (target, context) => runDatabaseCheck(target, context, mongodbDriver),
}
