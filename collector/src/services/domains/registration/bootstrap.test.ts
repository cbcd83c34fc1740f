import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { rdapBootstrap, rdapServerFor } from './bootstrap.ts'

const shipped = rdapBootstrap.parse(
  JSON.parse(readFileSync(new URL('../../../../assets/rdap/dns.json', import.meta.url), 'utf8')),
)

describe('RDAP bootstrap', () => {
  it.each([
    ['example.com', 'https://rdap.verisign.com/com/v1/'],
    ['example.net', 'https://rdap.verisign.com/net/v1/'],
    ['example.org', 'https://rdap.publicinterestregistry.org/rdap/'],
    ['example.dev', 'https://pubapi.registry.google/rdap/'],
    ['example.co.uk', 'https://rdap.nominet.uk/uk/'],
    ['example.nl', 'https://rdap.sidn.nl/'],
  ])('the shipped copy sends %s to %s', (domain, base) => {
    expect(rdapServerFor(shipped, domain)?.toString()).toBe(base)
  })

  it('knows no server for a TLD it does not list', () => {
    expect(rdapServerFor(shipped, 'example.zz')).toBeUndefined()
  })

  it('prefers https, adds the trailing slash, and takes the longest suffix listed', () => {
    const bootstrap = rdapBootstrap.parse({
      services: [
        [['com'], ['http://plain.example/rdap', 'https://secure.example/rdap']],
        [['uk'], ['https://uk.example/']],
        [['co.uk'], ['https://co-uk.example/']],
        [['bad'], ['ftp://files.example/', 'not a url']],
      ],
    })
    expect(rdapServerFor(bootstrap, 'example.com')?.toString()).toBe('https://secure.example/rdap/')
    expect(rdapServerFor(bootstrap, 'example.co.uk')?.toString()).toBe('https://co-uk.example/')
    expect(rdapServerFor(bootstrap, 'example.bad')).toBeUndefined()
  })

  it('refuses a document without services', () => {
    expect(rdapBootstrap.safeParse({ version: '1.0', services: [] }).success).toBe(false)
    expect(rdapBootstrap.safeParse({ services: [['com', 'https://x/']] }).success).toBe(false)
  })
})
