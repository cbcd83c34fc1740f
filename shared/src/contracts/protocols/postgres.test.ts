import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { postgresProtocol } from './postgres.ts'

const problemsOf = (config: Parameters<NonNullable<typeof postgresProtocol.problems>>[0]) =>
  postgresProtocol.problems?.(config)

describe('postgresProtocol', () => {
  it('is a probe target with its options and a write-only password', () => {
    const target = {
      kind: 'postgres',
      host: 'db.example.org',
      port: 5433,
      tls: true,
      username: 'monitor',
      database: 'app',
      query: 'SELECT count(*) FROM jobs WHERE failed',
      expectRows: { count: 1, comparison: '>=' },
      expectValue: '0',
      secrets: { password: 'secret' },
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(postgresProtocol.secretFields).toEqual(['password'])
    expect(postgresProtocol.defaultPort).toBe(5432)
  })

  it('rejects an unknown comparison, a negative count and an oversized query', () => {
    const base = { kind: 'postgres', host: 'db.example.org', query: 'SELECT 1' }
    expect(monitorTarget.safeParse({ ...base, expectRows: { count: 1, comparison: '>' } }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, expectRows: { count: -1 } }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, query: 'x'.repeat(10_001) }).success).toBe(false)
  })

  it('needs a query for its assertions and tls for ignoreTlsErrors', () => {
    expect(problemsOf({ expectRows: { count: 1 }, expectValue: '1', ignoreTlsErrors: true })).toEqual([
      [['ignoreTlsErrors'], 'needs tls: true'],
      [['expectRows'], 'needs a query'],
      [['expectValue'], 'needs a query'],
    ])
    expect(problemsOf({ query: 'SELECT 1', expectValue: '1', tls: true, ignoreTlsErrors: true })).toEqual([])
  })
})
