import { connect } from 'node:net'
import type { Checker, CheckOutcome } from '../../checker.ts'
import { elapsedSince, failed, roundMs } from '../outcome.ts'
import { vetTarget } from '../vet-target.ts'

/** Opens a TCP connection to host:port on the vetted address; accepted means up. */
export function connectTcp(address: string, port: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port, signal })
    socket.once('connect', () => {
      socket.destroy()
      resolve()
    })
    socket.once('error', reject)
  })
}

export const tcpChecker: Checker<'tcp'> = {
  kind: 'tcp',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    try {
      const vetted = await vetTarget(target.host, context)
      const connecting = performance.now()
      await connectTcp(vetted.address, target.port, context.signal)
      return {
        status: 'up',
        responseTimeMs: elapsedSince(started),
        phases: { dnsMs: roundMs(vetted.lookupMs), connectMs: elapsedSince(connecting) },
        address: vetted.address,
      }
    } catch (error) {
      return failed(error, context, started)
    }
  },
}
