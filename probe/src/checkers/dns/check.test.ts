import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DnsFixture, startDnsFixture } from '../../testing/dns-server.ts'
import { testContext } from '../../testing/fixtures.ts'
import { dnsChecker, hasPrivateAnswer } from './check.ts'

describe('dnsChecker against a DNS server on 127.0.0.1', () => {
  let fixture: DnsFixture

  beforeAll(async () => {
    fixture = await startDnsFixture(
      {
        'shop.test': [
          { type: 'A', name: 'shop.test', ttl: 300, data: '192.0.2.10' },
          { type: 'MX', name: 'shop.test', ttl: 60, data: { preference: 10, exchange: 'mail.shop.test' } },
          { type: 'TXT', name: 'shop.test', ttl: 60, data: ['v=spf1 ', '-all'] },
        ],
      },
      ['slow.test'],
    )
  })
  afterAll(() => fixture.close())

  const check = (hostname: string, recordType: 'A' | 'MX' | 'TXT', expected?: string, timeoutMs = 2000) =>
    dnsChecker.check(
      { kind: 'dns', hostname, recordType, server: fixture.server, ...(expected ? { expected } : {}) },
      testContext(timeoutMs),
    )

  it('reports up with the answers of the record type', async () => {
    expect(await check('shop.test', 'A')).toMatchObject({ status: 'up', answers: ['192.0.2.10'] })
    expect(await check('shop.test', 'TXT')).toMatchObject({ status: 'up', answers: ['v=spf1 -all'] })
  })

  it('matches the expected value, ignoring case, a trailing dot and the MX priority', async () => {
    expect(await check('shop.test', 'A', '192.0.2.10')).toMatchObject({ status: 'up' })
    expect(await check('shop.test', 'MX', 'MAIL.shop.test.')).toMatchObject({
      status: 'up',
      answers: ['10 mail.shop.test'],
    })
  })

  it('reports down naming what it got when the expected value is missing', async () => {
    expect(await check('shop.test', 'A', '192.0.2.99')).toMatchObject({
      status: 'down',
      error: 'expected 192.0.2.99, got 192.0.2.10',
    })
  })

  it('reports down for a name that does not exist', async () => {
    const outcome = await check('nothing.test', 'A')
    expect(outcome.status).toBe('down')
    expect(outcome.error).toMatch(/ENOTFOUND/)
  })

  it('reports down within the timeout when the server never answers', async () => {
    const started = performance.now()
    const outcome = await check('slow.test', 'A', undefined, 300)
    expect(outcome).toMatchObject({ status: 'down', error: 'timed out after 300 ms' })
    expect(performance.now() - started).toBeLessThan(1500)
  })

  it('refuses a loopback DNS server without the allow flag', async () => {
    const outcome = await dnsChecker.check(
      { kind: 'dns', hostname: 'shop.test', recordType: 'A', server: fixture.server },
      testContext(1000, false),
    )
    expect(outcome).toMatchObject({ status: 'down', error: expect.stringMatching(/^refused: DNS server 127\.0\.0\.1/) })
  })

  it('withholds private address answers without the allow flag', () => {
    expect(hasPrivateAnswer('A', ['93.184.216.34', '10.0.0.5'])).toBe(true)
    expect(hasPrivateAnswer('AAAA', ['::1'])).toBe(true)
    expect(hasPrivateAnswer('A', ['93.184.216.34'])).toBe(false)
    expect(hasPrivateAnswer('TXT', ['10.0.0.5'])).toBe(false)
  })
})
