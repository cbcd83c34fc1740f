import { describe, expect, it } from 'vitest'
import { registrableDomain, registrableDomainOfUrl } from './registrable-domain.ts'

describe('registrable domain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['www.api.example.com', 'example.com'],
    ['EXAMPLE.com.', 'example.com'],
    ['shop.example.co.uk', 'example.co.uk'],
    ['example.co.uk', 'example.co.uk'],
    ['a.b.example.com.au', 'example.com.au'],
    ['www.xn--bcher-kva.de', 'xn--bcher-kva.de'],
  ])('registers %s as %s', (host, domain) => {
    expect(registrableDomain(host)).toBe(domain)
  })

  it.each([
    '127.0.0.1',
    '[::1]',
    '2001:db8::1',
    'localhost',
    'intranet',
    'printer.local',
    'app.test',
    'example.internal',
    'co.uk',
    'a..com',
    `${'a'.repeat(64)}.com`,
    `${'abc.'.repeat(63)}com`,
  ])('finds no registration for %s', (host) => {
    expect(registrableDomain(host)).toBeUndefined()
  })

  it('reads the host of a URL, punycode included', () => {
    expect(registrableDomainOfUrl('https://www.bücher.de:8443/path?q=1')).toBe('xn--bcher-kva.de')
    expect(registrableDomainOfUrl('http://[::1]:8080/')).toBeUndefined()
    expect(registrableDomainOfUrl('not a url')).toBeUndefined()
  })
})
