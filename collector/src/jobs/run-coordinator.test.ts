import { fileURLToPath } from 'node:url'
import { createLogger, migrate, openTestRelationalStore, type RelationalStore, type Sql } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { postgresRunCoordinator } from './run-coordinator.ts'

describe('postgresRunCoordinator', () => {
  let store: RelationalStore
  let down = false
  /** The store as a replica sees it: every query refused while `down`, as with PostgreSQL stopped. */
  const sql: Sql = {
    query: (text, params) =>
      down ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) : store.query(text, params),
    transaction: (work) => store.transaction(work),
  }

  beforeAll(async () => {
    store = await openTestRelationalStore()
    await migrate(store, {
      service: 'collector',
      directory: fileURLToPath(new URL('../../migrations/postgres', import.meta.url)),
    })
  })
  afterAll(() => store?.close())

  it('lets one replica of two run each slot', async () => {
    const log = createLogger({ name: 'test', level: 'silent', pretty: false })
    const a = postgresRunCoordinator(sql, log, 'a')
    const b = postgresRunCoordinator(sql, log, 'b')
    expect(await a.shouldRun('job:1', 60_000)).toBe(true)
    expect(await b.shouldRun('job:1', 60_000)).toBe(false)
    expect(await b.shouldRun('job:2', 60_000)).toBe(true)
  })

  it('skips every slot while the store is away, saying so once when it starts and once when it ends', async () => {
    const log = createLogger({ name: 'test', level: 'silent', pretty: false })
    const warn = vi.spyOn(log, 'warn')
    const info = vi.spyOn(log, 'info')
    const coordinator = postgresRunCoordinator(sql, log, 'a')
    down = true
    for (const slot of [3, 4, 5]) expect(await coordinator.shouldRun(`job:${slot}`, 60_000)).toBe(false)
    expect(warn).toHaveBeenCalledTimes(1)
    down = false
    expect(await coordinator.shouldRun('job:6', 60_000)).toBe(true)
    expect(await coordinator.shouldRun('job:7', 60_000)).toBe(true)
    expect(info).toHaveBeenCalledTimes(1)
  })
})
