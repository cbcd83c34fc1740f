import { describe, expect, it } from 'vitest'
import { testContext } from '../../testing/fixtures.ts'
import { pingBinary } from '../../testing/ping.ts'
import { icmpChecker } from './check.ts'
import { parsePingOutput } from './ping.ts'

const ping = pingBinary()

describe('icmpChecker', () => {
  it('reads transmitted, received and the average round trip from ping output', () => {
    const output = [
      '--- 192.0.2.1 ping statistics ---',
      '3 packets transmitted, 2 received, 33.3333% packet loss, time 402ms',
      'rtt min/avg/max/mdev = 0.031/0.045/0.060/0.012 ms',
    ].join('\n')
    expect(parsePingOutput(output)).toEqual({ transmitted: 3, received: 2, avgMs: 0.045 })
    expect(parsePingOutput('3 packets transmitted, 0 received, 100% packet loss')).toEqual({
      transmitted: 3,
      received: 0,
      avgMs: undefined,
    })
  })

  it.skipIf(!ping)('reports up with no packet loss when 127.0.0.1 answers', async () => {
    const outcome = await icmpChecker.check({ kind: 'icmp', host: '127.0.0.1', count: 2 }, testContext(3000))
    expect(outcome).toMatchObject({ status: 'up', packetLossPercent: 0, address: '127.0.0.1' })
  })

  it('refuses a loopback target without the allow flag', async () => {
    expect(await icmpChecker.check({ kind: 'icmp', host: '127.0.0.1' }, testContext(1000, false))).toMatchObject({
      status: 'down',
      error: expect.stringMatching(/^refused/),
    })
  })
})
