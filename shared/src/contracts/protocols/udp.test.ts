import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { udpProtocol } from './udp.ts'

const problemsOf = (config: Parameters<NonNullable<typeof udpProtocol.problems>>[0]) => udpProtocol.problems!(config)

describe('udpProtocol', () => {
  it('is a probe target with its options', () => {
    const target = {
      kind: 'udp',
      host: 'ntp.example.org',
      port: 123,
      payload: '1b',
      payloadEncoding: 'hex',
      replyMatches: '^1c',
    }
    expect(monitorTarget.parse(target)).toEqual(target)
  })

  it('rejects an unknown encoding, an oversized payload and a regex that does not compile', () => {
    const base = { kind: 'udp', host: 'example.org', port: 9 }
    expect(monitorTarget.safeParse({ ...base, payloadEncoding: 'base64' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, payload: 'x'.repeat(8193) }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, replyMatches: '(' }).success).toBe(false)
  })

  it('has no secrets and no default port', () => {
    expect(udpProtocol.secretFields).toEqual([])
    expect(udpProtocol.defaultPort).toBeUndefined()
  })

  it('needs a port', () => {
    expect(problemsOf({})).toEqual([[['port'], 'a UDP check needs a port']])
    expect(problemsOf({ port: 53 })).toEqual([])
  })

  it('needs pairs of hex digits for a hex payload', () => {
    expect(problemsOf({ port: 9, payloadEncoding: 'hex', payload: 'abc' })).toEqual([
      [['payload'], 'must be pairs of hex digits when payloadEncoding is hex'],
    ])
    expect(problemsOf({ port: 9, payloadEncoding: 'hex', payload: 'zz' })).toHaveLength(1)
    expect(problemsOf({ port: 9, payloadEncoding: 'hex', payload: '0aFF' })).toEqual([])
    expect(problemsOf({ port: 9, payload: 'abc' })).toEqual([])
  })

  it('takes replyContains or replyMatches, not both', () => {
    expect(problemsOf({ port: 9, replyContains: 'OK', replyMatches: '^OK' })).toEqual([
      [['replyMatches'], 'give replyContains or replyMatches, not both'],
    ])
  })
})
