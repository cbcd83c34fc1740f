import type { MonitorTarget } from '@guard/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testContext } from '../../testing/fixtures.ts'
import { closedUdpPort, startUdpServer, type UdpFixture } from '../../testing/udp-server.ts'
import { udpChecker } from './check.ts'

type UdpTarget = Extract<MonitorTarget, { kind: 'udp' }>

describe('udpChecker', () => {
  let echo: UdpFixture
  let silent: UdpFixture
  const target = (options: Partial<UdpTarget> = {}): UdpTarget => ({
    kind: 'udp',
    host: '127.0.0.1',
    port: echo.port,
    ...options,
  })

  beforeAll(async () => {
    echo = await startUdpServer((datagram) => Buffer.concat([Buffer.from('PONG '), datagram]))
    silent = await startUdpServer(() => undefined)
  })
  afterAll(async () => {
    await echo.close()
    await silent.close()
  })

  it('is up when the reply contains the expected text, and times the round trip', async () => {
    const outcome = await udpChecker.check(target({ payload: 'ping', replyContains: 'PONG ping' }), testContext())
    expect(outcome).toMatchObject({ status: 'up', address: '127.0.0.1', phases: { dnsMs: 0 } })
    expect(outcome.phases?.firstByteMs).toBeGreaterThanOrEqual(0)
    expect(echo.received.at(-1)?.toString()).toBe('ping')
  })

  it('is up on any reply when no pattern is given', async () => {
    expect(await udpChecker.check(target(), testContext())).toMatchObject({ status: 'up' })
  })

  it('sends a hex payload as bytes and matches the reply as hex', async () => {
    const outcome = await udpChecker.check(
      target({ payload: '00ff10', payloadEncoding: 'hex', replyMatches: '^504f4e472000ff10$' }),
      testContext(),
    )
    expect(outcome.status).toBe('up')
    expect([...echo.received.at(-1)!]).toEqual([0x00, 0xff, 0x10])
  })

  it('is down with reply_mismatch when the reply lacks the expected text', async () => {
    const outcome = await udpChecker.check(target({ payload: 'ping', replyContains: 'READY' }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'reply_mismatch' })
    expect(outcome.error).toMatch(/"PONG ping" does not contain "READY"/)
  })

  it('is down with reply_mismatch when the reply does not match the regular expression', async () => {
    const outcome = await udpChecker.check(target({ payload: 'ping', replyMatches: '^OK\\b' }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'reply_mismatch' })
    expect(outcome.error).toMatch(/does not match \/\^OK\\b\//)
  })

  it('times out within the timeout when no reply comes', async () => {
    const started = performance.now()
    const outcome = await udpChecker.check(target({ port: silent.port, payload: 'ping' }), testContext(300))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'timeout', error: 'timed out after 300 ms' })
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('is down with connect_refused when the port answers ICMP port unreachable', async () => {
    const outcome = await udpChecker.check(target({ port: await closedUdpPort(), payload: 'ping' }), testContext())
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'connect_refused' })
  })

  it('refuses a loopback target without the allow flag, sending nothing', async () => {
    const before = echo.received.length
    const outcome = await udpChecker.check(target({ payload: 'ping' }), testContext(1000, false))
    expect(outcome).toMatchObject({ status: 'down', errorKind: 'refused_private_target' })
    expect(echo.received.length).toBe(before)
  })
})
