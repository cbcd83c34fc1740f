import { createClient } from '@clickhouse/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ClickHouseDouble, startClickHouseDouble } from './clickhouse-http.ts'

describe('the ClickHouse HTTP double', () => {
  let double: ClickHouseDouble
  beforeAll(async () => {
    double = await startClickHouseDouble({ user: 'guard', password: 'secret' })
  })
  afterAll(() => double.close())

  it('binds param_* values as ClickHouse parses them, quotes, backslashes and tabs included', async () => {
    const client = createClient({ url: double.url, username: 'guard', password: 'secret' })
    try {
      const text = "it's a \\ back\tslash\nand a line"
      const result = await client.query({
        query: 'SELECT {text:String} AS text, {list:Array(String)} AS list, {n:UInt64} + 1 AS n',
        query_params: { text, list: [text, 'b'], n: 41 },
        format: 'JSONEachRow',
      })
      expect(await result.json()).toEqual([{ text, list: [text, 'b'], n: '42' }])
      expect((await client.ping()).success).toBe(true)
      expect(double.requests.ping).toBeGreaterThan(0)
    } finally {
      await client.close()
    }
  })

  it("answers errors with ClickHouse's code header and text, which the client reads", async () => {
    const response = await fetch(`${double.url}/?query=SELEC%201`, {
      headers: { authorization: `Basic ${btoa('guard:secret')}` },
    })
    expect(response.status).toBe(400)
    expect(response.headers.get('x-clickhouse-exception-code')).toBe('62')
    expect(await response.text()).toMatch(/^Code: 62\. DB::Exception: .*\(SYNTAX_ERROR\)/s)

    const client = createClient({ url: double.url, username: 'guard', password: 'wrong' })
    try {
      await expect(client.query({ query: 'SELECT 1' })).rejects.toMatchObject({
        code: '516',
        type: 'AUTHENTICATION_FAILED',
      })
    } finally {
      await client.close()
    }
  })
})
