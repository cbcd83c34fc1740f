import type { RelationalStore } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectorForTest } from '../../test-support.ts'
import { consumeRateLimit, writeBackRateLimits } from './consume.ts'

let harness: Awaited<ReturnType<typeof collectorForTest>>
beforeAll(async () => {
  harness = await collectorForTest()
})
afterAll(() => harness.close())

/** The same database seen as a PostgreSQL server's store, which replicas share: counted by group commit. */
const asServer = (sql: RelationalStore): RelationalStore => ({
  engine: 'postgres',
  singleProcess: false,
  query: (text, params) => sql.query(text, params),
  transaction: (work) => sql.transaction(work),
  close: async () => {},
})

describe.each([
  ['PostgreSQL (group commit)', () => asServer(harness.ctx.sql)],
  ['PGlite (in memory, written back)', () => harness.ctx.sql],
])('rate limits on %s', (name, storeOf) => {
  it('counts concurrent requests exactly, each with its own count, and stores the total', async () => {
    const sql = storeOf()
    const principal = `api_key:burst-${name}`
    const decisions = await Promise.all(Array.from({ length: 50 }, () => consumeRateLimit(sql, principal, 'read', 30)))
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(30)
    expect(decisions.map((decision) => decision.remaining).sort((a, b) => b - a)).toEqual(
      Array.from({ length: 50 }, (_, index) => Math.max(0, 29 - index)),
    )
    await writeBackRateLimits(sql)
    const { rows } = await sql.query<{ count: number }>(
      'SELECT count FROM monitoring.rate_limits WHERE principal = $1',
      [principal],
    )
    expect(rows).toEqual([{ count: 50 }])
  })

  it('keeps separate counts per class and window', async () => {
    const sql = storeOf()
    const principal = `api_key:mixed-${name}`
    const hour = 3_600_000
    const now = Date.now()
    const [write, read, nextHour, writeAgain] = await Promise.all([
      consumeRateLimit(sql, principal, 'write', 2, now),
      consumeRateLimit(sql, principal, 'read', 2, now),
      consumeRateLimit(sql, principal, 'write', 2, now + hour),
      consumeRateLimit(sql, principal, 'write', 2, now),
    ])
    expect([write.remaining, read.remaining, nextHour.remaining, writeAgain.remaining]).toEqual([1, 1, 1, 0])
  })
})

it('carries an embedded count on from what was written back, as after a restart', async () => {
  const principal = 'api_key:restarted'
  await harness.ctx.sql.query(
    `INSERT INTO monitoring.rate_limits (principal, class, window_start, count)
     VALUES ($1, 'read', to_timestamp(floor(extract(epoch FROM now()) / 3600) * 3600), 9)`,
    [principal],
  )
  const decision = await consumeRateLimit(harness.ctx.sql, principal, 'read', 10)
  expect(decision).toMatchObject({ remaining: 0, allowed: true })
  expect((await consumeRateLimit(harness.ctx.sql, principal, 'read', 10)).allowed).toBe(false)
})
