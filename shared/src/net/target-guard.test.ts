import { lookup } from 'node:dns/promises'
import { describe, expect, it, vi } from 'vitest'
import { forbiddenAddressReason, resolveAllowedTarget, TargetRefusedError } from './target-guard.ts'

// The resolver's answers are scripted where a test needs a name that exists nowhere: tests never
// ask a DNS server off the machine.
vi.mock('node:dns/promises', async (original) => {
  const actual = await original<typeof import('node:dns/promises')>()
  return { ...actual, lookup: vi.fn(actual.lookup) }
})

describe('resolveAllowedTarget', () => {
  it('refuses a hostname resolving to 127.0.0.1 without the allow flag, without saying what it resolved to', async () => {
    const refused = resolveAllowedTarget('localhost', { allowPrivate: false })
    await expect(refused).rejects.toBeInstanceOf(TargetRefusedError)
    await expect(refused).rejects.toThrow(/^refused: localhost does not resolve to a public address/)
  })

  it('refuses a name that exists nowhere, or has no address, with the words it uses for a private one', async () => {
    const name = 'db.corp.example'
    const answers = [
      () => Promise.resolve([{ address: '10.0.0.8', family: 4 }]),
      () =>
        Promise.resolve([
          { address: '93.184.216.34', family: 4 },
          { address: 'fd00::8', family: 6 },
        ]),
      () => Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' })),
      () => Promise.reject(Object.assign(new Error(`getaddrinfo ENODATA ${name}`), { code: 'ENODATA' })),
      () => Promise.resolve([]),
    ]
    const messages = new Set<string>()
    for (const answer of answers) {
      vi.mocked(lookup).mockImplementationOnce(answer as never)
      const refused = await resolveAllowedTarget(name, { allowPrivate: false }).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(TargetRefusedError)
      messages.add((refused as Error).message)
    }
    expect([...messages]).toEqual([
      `refused: ${name} does not resolve to a public address; set GUARD_ALLOW_PRIVATE_TARGETS=1 to allow private targets`,
    ])
    // Allowed to reach private targets, a missing name is the DNS failure it is.
    vi.mocked(lookup).mockImplementationOnce(answers[2] as never)
    await expect(resolveAllowedTarget(name, { allowPrivate: true })).rejects.toMatchObject({ code: 'ENOTFOUND' })
  })

  it('returns the vetted loopback address when private targets are allowed', async () => {
    const target = await resolveAllowedTarget('localhost', { allowPrivate: true })
    expect(['127.0.0.1', '::1']).toContain(target.address)
    expect(target.lookupMs).toBeGreaterThanOrEqual(0)
  })

  it('refuses IP literals in private, metadata, CGNAT, unique-local and IPv4-mapped ranges', async () => {
    for (const address of ['10.0.0.1', '169.254.169.254', '100.100.100.200', '[fd00:ec2::254]', '::ffff:127.0.0.1']) {
      await expect(resolveAllowedTarget(address, { allowPrivate: false })).rejects.toThrow(/refused/)
    }
  })

  it('passes a public IP literal through without a lookup', async () => {
    expect(await resolveAllowedTarget('93.184.216.34', { allowPrivate: false })).toEqual({
      hostname: '93.184.216.34',
      address: '93.184.216.34',
      family: 4,
      lookupMs: 0,
    })
  })
})

describe('forbiddenAddressReason', () => {
  it('tells public addresses from the ranges around the process', () => {
    expect(forbiddenAddressReason('8.8.8.8')).toBeUndefined()
    expect(forbiddenAddressReason('2606:4700::1111')).toBeUndefined()
    expect(forbiddenAddressReason('127.0.0.1')).toBe('loopback')
    expect(forbiddenAddressReason('::1')).toBe('loopback')
    expect(forbiddenAddressReason('fe80::1')).toBe('link-local')
    expect(forbiddenAddressReason('172.20.0.1')).toBe('private')
    expect(forbiddenAddressReason('::ffff:8.8.8.8')).toBe('IPv4-mapped')
  })

  it('refuses IPv6 forms that embed an IPv4 address: 6to4, Teredo, IPv4-translated and mapped', () => {
    expect(forbiddenAddressReason('2002:7f00:1::')).toBe('6to4')
    expect(forbiddenAddressReason('2002:a9fe:a9fe::1')).toBe('6to4')
    expect(forbiddenAddressReason('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toBe('Teredo')
    expect(forbiddenAddressReason('::ffff:0:7f00:1')).toBe('IPv4-translated')
    expect(forbiddenAddressReason('::ffff:0:127.0.0.1')).toBe('IPv4-translated')
    expect(forbiddenAddressReason('::ffff:127.0.0.1')).toBe('IPv4-mapped')
    expect(forbiddenAddressReason('::ffff:7f00:1')).toBe('IPv4-mapped')
    // Neighbours of those ranges stay public.
    expect(forbiddenAddressReason('2003::1')).toBeUndefined()
    expect(forbiddenAddressReason('2001:4860:4860::8888')).toBeUndefined()
  })

  it('refuses the documentation, ORCHID and benchmarking ranges, and nothing next to them', () => {
    for (const address of ['192.0.2.1', '198.51.100.7', '203.0.113.255', '2001:db8::1', '3fff:fff::1']) {
      expect(forbiddenAddressReason(address), address).toBe('documentation')
    }
    expect(forbiddenAddressReason('2001:1f:ffff::1')).toBe('ORCHID')
    expect(forbiddenAddressReason('2001:2:0:ffff::1')).toBe('benchmarking')
    for (const address of ['192.0.3.1', '198.51.101.1', '203.0.112.255', '2001:db9::1', '3fff:1000::1', '2001:20::1']) {
      expect(forbiddenAddressReason(address), address).toBeUndefined()
    }
  })
})
