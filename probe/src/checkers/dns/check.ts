import type { DnsRecordType } from '@guard/shared'
import { truncateText } from '@guard/shared'
import { forbiddenAddressReason, noPublicAddress } from '@guard/shared/net'
import type { Checker, CheckOutcome } from '../../checker.ts'
import { elapsedSince, failed, untilAborted } from '../outcome.ts'
import { resolveRecords } from './resolve-records.ts'
import { resolverFor } from './resolver.ts'

const normalize = (value: string) => value.trim().toLowerCase().replace(/\.$/, '')

/**
 * Whether an address answer lies in a range the target guard refuses. Without
 * GUARD_ALLOW_PRIVATE_TARGETS such answers are withheld, as a refused HTTP target's address is,
 * so a DNS check is no oracle for names that only resolve inside the probe's network.
 */
export function hasPrivateAnswer(recordType: DnsRecordType, answers: string[]): boolean {
  if (recordType !== 'A' && recordType !== 'AAAA') return false
  return answers.some((answer) => forbiddenAddressReason(answer) !== undefined)
}

/** Resolves one record type; up when there are answers and, if given, one equals the expected value. */
export const dnsChecker: Checker<'dns'> = {
  kind: 'dns',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    try {
      const resolver = resolverFor(target.server, context.timeoutMs, context.allowPrivate)
      context.signal.addEventListener('abort', () => resolver.cancel(), { once: true })
      const records = await untilAborted(resolveRecords(resolver, target.hostname, target.recordType), context.signal)
      const answers = records.map((record) => record.value)
      const responseTimeMs = elapsedSince(started)
      if (!context.allowPrivate && hasPrivateAnswer(target.recordType, answers)) {
        return failed(noPublicAddress(target.hostname), context, started)
      }
      const base = { responseTimeMs, phases: { dnsMs: responseTimeMs }, answers: answers.slice(0, 100) }
      if (answers.length === 0)
        return { ...base, status: 'down', error: `no ${target.recordType} records`, errorKind: 'dns_no_answer' }
      if (target.expected !== undefined) {
        const expected = normalize(target.expected)
        // MX and SRV answers carry priorities in front; the expected value may name just the host.
        const found = answers.some(
          (answer) => normalize(answer) === expected || normalize(answer).endsWith(` ${expected}`),
        )
        if (!found) {
          return {
            ...base,
            status: 'down',
            errorKind: 'dns_mismatch',
            error: `expected ${target.expected}, got ${truncateText(answers.join(', '), 500)}`,
          }
        }
      }
      return { ...base, status: 'up' }
    } catch (error) {
      return failed(error, context, started)
    }
  },
}
