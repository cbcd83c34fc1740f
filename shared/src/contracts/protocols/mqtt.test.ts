import { describe, expect, it } from 'vitest'
import { monitorTarget } from '../monitor.ts'
import { mqttProtocol, topicFilterValid } from './mqtt.ts'

const problemsOf = (config: Parameters<NonNullable<typeof mqttProtocol.problems>>[0]) => mqttProtocol.problems!(config)

describe('mqttProtocol', () => {
  it('is a probe target with its options and its write-only password', () => {
    const target = {
      kind: 'mqtt',
      host: 'broker.example.com',
      port: 8883,
      tls: true,
      username: 'probe',
      topic: 'plant/+/state',
      messageMatches: 'status=ok',
      secrets: { password: 'secret' },
    }
    expect(monitorTarget.parse(target)).toEqual(target)
    expect(mqttProtocol.secretFields).toEqual(['password'])
  })

  it('accepts topic filters with whole-level wildcards only', () => {
    for (const filter of ['a/b', '#', 'a/#', '+', 'a/+/c', '/a', 'a//b']) expect(topicFilterValid(filter)).toBe(true)
    for (const filter of ['a/#/c', 'a#', 'a/b+', '+a/b', '##']) expect(topicFilterValid(filter)).toBe(false)
    const base = { kind: 'mqtt', host: 'example.org' }
    expect(monitorTarget.safeParse({ ...base, topic: 'a/#/c' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, topic: '' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, topic: 'a\0b' }).success).toBe(false)
    expect(monitorTarget.safeParse({ ...base, messageMatches: '(' }).success).toBe(false)
  })

  it('needs a topic for a message assertion, one assertion at most, and tls for ignoreTlsErrors', () => {
    expect(problemsOf({ messageContains: 'ok' })).toEqual([[['messageContains'], 'needs a topic']])
    expect(problemsOf({ topic: 'a', messageContains: 'ok', messageMatches: 'ok' })).toEqual([
      [['messageMatches'], 'give messageContains or messageMatches, not both'],
    ])
    expect(problemsOf({ ignoreTlsErrors: false })).toEqual([[['ignoreTlsErrors'], 'needs tls']])
    expect(problemsOf({ topic: 'a/#', messageContains: 'ok', tls: true, ignoreTlsErrors: true })).toEqual([])
  })
})
