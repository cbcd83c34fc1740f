import type { Checker, CheckOutcome } from '../../checker.ts'
import { elapsedSince, failed, roundMs } from '../outcome.ts'
import { vetTarget } from '../vet-target.ts'
import { parsePingOutput, runPing } from './ping.ts'

const DEFAULT_COUNT = 3

/** ICMP echo through the system's ping: all replies up, some lost degraded, none down. */
export const icmpChecker: Checker<'icmp'> = {
  kind: 'icmp',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    try {
      const vetted = await vetTarget(target.host, context)
      const output = await runPing(
        vetted.address,
        vetted.family,
        target.count ?? DEFAULT_COUNT,
        context.timeoutMs,
        context.signal,
      )
      const summary = parsePingOutput(output)
      if (!summary) throw new Error('ping printed no summary')
      const lost = summary.transmitted - summary.received
      const packetLossPercent = summary.transmitted > 0 ? roundMs((lost / summary.transmitted) * 100) : 100
      const base = {
        responseTimeMs: summary.avgMs ?? elapsedSince(started),
        phases: { dnsMs: roundMs(vetted.lookupMs) },
        address: vetted.address,
        packetLossPercent,
      }
      if (summary.received === 0)
        return {
          ...base,
          status: 'down',
          error: `no reply to ${summary.transmitted} echo requests`,
          errorKind: 'unreachable',
        }
      if (lost > 0)
        return {
          ...base,
          status: 'degraded',
          error: `${lost} of ${summary.transmitted} echo requests lost`,
          errorKind: 'packet_loss',
        }
      return { ...base, status: 'up' }
    } catch (error) {
      return failed(error, context, started)
    }
  },
}
