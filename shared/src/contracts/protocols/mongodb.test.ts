import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { mongodbProtocol } from './mongodb.ts'

describe('mongodbProtocol', () => {
  it('is a probe target with a find or aggregate query and a write-only password', () => {
    const target = {
      kind: 'mongodb',
      host: 'mongo.example.org',
      username: 'monitor',
      authSource: 'admin',
      query: { database: 'app', collection: 'jobs', filter: { state: 'failed' } },
      expectRows: { count: 0 },
      secrets: { password: 'secret' },
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(mongodbProtocol.secretFields).toEqual(['password'])
    expect(mongodbProtocol.defaultPort).toBe(27017)
  })

  it('refuses a pipeline that writes, at any depth', () => {
    const base = { kind: 'mongodb', host: 'mongo.example.org' }
    const query = (pipeline: unknown[]) => ({ ...base, query: { database: 'app', collection: 'jobs', pipeline } })
    expect(monitorTarget.safeParse(query([{ $match: {} }, { $out: 'copy' }])).success).toBe(false)
    expect(monitorTarget.safeParse(query([{ $facet: { a: [{ $merge: { into: 'x' } }] } }])).success).toBe(false)
    expect(monitorTarget.safeParse(query([{ $match: { state: 'failed' } }, { $count: 'n' }])).success).toBe(true)
  })

  it('needs a collection and database in a query', () => {
    const base = { kind: 'mongodb', host: 'mongo.example.org' }
    expect(monitorTarget.safeParse({ ...base, query: { collection: 'jobs' } }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, query: { database: 'app' } }).success).toBe(false)
  })

  it('takes a filter or a pipeline, not both, and assertions only with a query', () => {
    const query = { database: 'app', collection: 'jobs', filter: {}, pipeline: [] }
    expect(mongodbProtocol.problems?.({ query })).toEqual([
      [['query', 'pipeline'], 'give filter or pipeline, not both'],
    ])
    expect(mongodbProtocol.problems?.({ expectValue: '1' })).toEqual([[['expectValue'], 'needs a query']])
  })
})
