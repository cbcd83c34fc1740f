import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { websocketProtocol } from './websocket.ts'

const problemsOf = (config: Parameters<NonNullable<typeof websocketProtocol.problems>>[0]) =>
  websocketProtocol.problems!(config)

describe('websocketProtocol', () => {
  it('is a probe target with its options and its write-only authorization', () => {
    const target = {
      kind: 'websocket',
      host: 'stream.example.com',
      port: 443,
      path: '/live?room=1',
      tls: true,
      headers: { Origin: 'https://example.com' },
      subprotocols: ['graphql-ws'],
      send: '{"type":"ping"}',
      replyContains: 'pong',
      closeCode: 1000,
      secrets: { authorization: 'Bearer token' },
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(websocketProtocol.secretFields).toEqual(['authorization'])
    expect(websocketProtocol.defaultPort).toBeUndefined()
  })

  it('rejects a path without its slash or with a fragment, bad subprotocols, close codes and patterns', () => {
    const base = { kind: 'websocket', host: 'example.org' }
    expect(monitorTarget.safeParse({ ...base, path: 'live' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, path: '/live#x' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, subprotocols: ['a b'] }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, subprotocols: [] }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, closeCode: 999 }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, closeCode: 5000 }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, replyMatches: '(' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, headers: { 'X-A': 'a\r\nb' } }).success).toBe(false)
  })

  it('refuses headers the probe sets or that belong in the secret, and repeated subprotocols', () => {
    expect(problemsOf({ headers: { Upgrade: 'x', 'Sec-WebSocket-Protocol': 'a', authorization: 'Bearer x' } })).toEqual(
      [
        [['headers', 'Upgrade'], 'Upgrade is set by the probe and cannot be given'],
        [
          ['headers', 'Sec-WebSocket-Protocol'],
          'Sec-WebSocket-Protocol is set by the probe and cannot be given; give subprotocols instead',
        ],
        [['headers', 'authorization'], 'give authorization as a secret, which is never returned'],
      ],
    )
    expect(problemsOf({ subprotocols: ['json', 'json'] })).toEqual([
      [['subprotocols'], 'must not repeat a subprotocol'],
    ])
  })

  it('takes replyContains or replyMatches, not both, and ignoreTlsErrors only with tls', () => {
    expect(problemsOf({ replyContains: 'a', replyMatches: 'b' })).toEqual([
      [['replyMatches'], 'give replyContains or replyMatches, not both'],
    ])
    expect(problemsOf({ ignoreTlsErrors: true })).toEqual([[['ignoreTlsErrors'], 'needs tls']])
    expect(problemsOf({ tls: true, ignoreTlsErrors: true, replyContains: 'a' })).toEqual([])
  })
})
