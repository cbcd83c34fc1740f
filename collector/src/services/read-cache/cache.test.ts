import { describe, expect, it } from 'vitest'
import { createReadCache } from './cache.ts'

const response = { statusCode: 200, contentType: 'application/json', payload: '{}' }

describe('read cache', () => {
  it('lets go of expired entries nobody read again when it stores a new one, well before it is full', () => {
    const cache = createReadCache({ ttlMs: 1000, maxEntries: 100 })
    for (let page = 1; page <= 10; page++) cache.set(`/api/domains?page=${page}`, [0], response, 0)
    cache.set('/api/domains/stats', [0], response, 500)
    expect(cache.size).toBe(11)
    cache.set('/api/domains?page=11', [0], response, 1000)
    expect(cache.size).toBe(2)
    expect(cache.get('/api/domains/stats', [], 1000)).toEqual(response)
  })
})
