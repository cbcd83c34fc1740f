import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { mysqlProtocol } from './mysql.ts'

describe('mysqlProtocol', () => {
  it('is a probe target with its options and a write-only password', () => {
    const target = {
      kind: 'mysql',
      host: 'db.example.org',
      username: 'monitor',
      database: 'shop',
      query: 'SELECT 1 FROM orders LIMIT 1',
      expectRows: { count: 1 },
      secrets: { password: 'secret' },
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(mysqlProtocol.secretFields).toEqual(['password'])
    expect(mysqlProtocol.defaultPort).toBe(3306)
  })

  it('rejects an empty query and a database name over 64 characters', () => {
    const base = { kind: 'mysql', host: 'db.example.org' }
    expect(monitorTarget.safeParse({ ...base, query: '' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, database: 'd'.repeat(65) }).success).toBe(false)
  })

  it('needs a query for its assertions', () => {
    expect(mysqlProtocol.problems?.({ expectValue: '1' })).toEqual([[['expectValue'], 'needs a query']])
  })
})
