import { afterAll, beforeAll, expect, it } from 'vitest'
import { collectorForTest } from '../../test-support.ts'
import { consumeRateLimit } from './consume.ts'

let harness: Awaited<ReturnType<typeof collectorForTest>>
beforeAll(async () => {
  harness = await collectorForTest()
})
afterAll(() => harness.close())

it('counts concurrent requests that share one statement exactly, each with its own count', async () => {
  const decisions = await Promise.all(
    Array.from({ length: 50 }, () => consumeRateLimit(harness.ctx.sql, 'api_key:burst', 'read', 30)),
  )
  expect(decisions.filter((decision) => decision.allowed)).toHaveLength(30)
  expect(decisions.map((decision) => decision.remaining).sort((a, b) => b - a)).toEqual(
    Array.from({ length: 50 }, (_, index) => Math.max(0, 29 - index)),
  )
  const { rows } = await harness.ctx.sql.query<{ count: number }>(
    `SELECT count FROM monitoring.rate_limits WHERE principal = 'api_key:burst'`,
  )
  expect(rows).toEqual([{ count: 50 }])
})

it('keeps separate counts per class and window when they share one statement', async () => {
  const hour = 3_600_000
  const now = Date.now()
  const [write, read, nextHour, writeAgain] = await Promise.all([
    consumeRateLimit(harness.ctx.sql, 'api_key:mixed', 'write', 2, now),
    consumeRateLimit(harness.ctx.sql, 'api_key:mixed', 'read', 2, now),
    consumeRateLimit(harness.ctx.sql, 'api_key:mixed', 'write', 2, now + hour),
    consumeRateLimit(harness.ctx.sql, 'api_key:mixed', 'write', 2, now),
  ])
  expect([write!.remaining, read!.remaining, nextHour!.remaining, writeAgain!.remaining]).toEqual([1, 1, 1, 0])
})
