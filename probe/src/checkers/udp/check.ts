import { createSocket } from 'node:dgram'
import { isIPv6 } from 'node:net'
import { truncateText } from '@guard/shared'
import type { Checker, CheckOutcome } from '../../checker.ts'
import { elapsedSince, failed, roundMs } from '../outcome.ts'
import { vetTarget } from '../vet-target.ts'

/**
 * Sends one datagram on a connected socket and resolves with the first reply. Connected, so the
 * kernel hands an ICMP port-unreachable back as ECONNREFUSED instead of dropping it.
 */
function exchange(address: string, port: number, payload: Buffer, signal: AbortSignal) {
  return new Promise<{ reply: Buffer; sentAt: number }>((resolve, reject) => {
    signal.throwIfAborted()
    const socket = createSocket(isIPv6(address) ? 'udp6' : 'udp4')
    let sentAt = performance.now()
    const finish = (settle: () => void) => {
      signal.removeEventListener('abort', onAbort)
      socket.close()
      settle()
    }
    const onAbort = () => finish(() => reject(signal.reason))
    signal.addEventListener('abort', onAbort, { once: true })
    socket.once('error', (error) => finish(() => reject(error)))
    socket.once('message', (reply) => finish(() => resolve({ reply, sentAt })))
    socket.connect(port, address, () => {
      sentAt = performance.now()
      socket.send(payload, (error) => {
        if (error) finish(() => reject(error))
      })
    })
  })
}

const preview = (text: string) => JSON.stringify(truncateText(text, 100))

/** Up when a reply comes within the timeout and matches `replyContains` or `replyMatches`, if given. */
export const udpChecker: Checker<'udp'> = {
  kind: 'udp',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    const encoding = target.payloadEncoding === 'hex' ? 'hex' : 'utf8'
    try {
      if (target.port === undefined) throw new Error('a UDP check needs a port')
      const vetted = await vetTarget(target.host, context)
      const payload = Buffer.from(target.payload ?? '', encoding)
      const { reply, sentAt } = await exchange(vetted.address, target.port, payload, context.signal)
      const measured = {
        responseTimeMs: elapsedSince(started),
        phases: { dnsMs: roundMs(vetted.lookupMs), firstByteMs: elapsedSince(sentAt) },
        address: vetted.address,
      }
      const text = reply.toString(encoding)
      if (target.replyContains !== undefined && !text.includes(target.replyContains)) {
        const error = `the reply ${preview(text)} does not contain ${preview(target.replyContains)}`
        return { status: 'down', ...measured, error, errorKind: 'reply_mismatch' }
      }
      if (target.replyMatches !== undefined && !new RegExp(target.replyMatches).test(text)) {
        const error = `the reply ${preview(text)} does not match /${truncateText(target.replyMatches, 100)}/`
        return { status: 'down', ...measured, error, errorKind: 'reply_mismatch' }
      }
      return { status: 'up', ...measured }
    } catch (error) {
      return failed(error, context, started)
    }
  },
}
