import { checkResultV1, GuardError, newId } from '@guard/shared'
import { z } from 'zod'
import type { Caller, CollectorContext } from '../../context.ts'
import { organizationScope } from '../access/organization.ts'
import { domainMonitorInput } from '../domains/create.ts'
import { serviceMonitorInput } from '../services/create.ts'
import { assertKnownLocations } from './known-locations.ts'
import { runCheckOnProbe } from './run-check.ts'
import { probeTarget } from './schedule.ts'
import { monitorInput } from './schemas.ts'

export const testMonitorInput = z
  .object({
    /** The location whose probe runs the check. */
    location: z.string().regex(/^[a-z0-9-]{2,32}$/, 'must be a location code such as fra'),
    /** A domain as POST /api/domains takes it, or */
    domain: z.record(z.string(), z.unknown()).optional(),
    /** a service as POST /api/services takes it. */
    service: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine((input) => (input.domain === undefined) !== (input.service === undefined), {
    message: 'give exactly one of domain or service',
    path: ['domain'],
  })
  .meta({
    examples: [
      {
        location: 'fra',
        domain: { url: 'https://example.org', keyword: 'Example Domain', expectedStatus: [200] },
      },
    ],
  })
export type TestMonitorInput = z.input<typeof testMonitorInput>

/** What the probe reported, as it reported it; nothing about the check is stored. */
export const testMonitorResult = checkResultV1.omit({ v: true, id: true, monitorId: true, organizationId: true })

/**
 * Runs the check a create would store, once, from one probe of the chosen location, and returns
 * the full result (status, phases, status code, certificate, the assertion that failed). Nothing
 * is stored or scheduled; the probe's target guard applies as to any check.
 */
export async function testMonitor({
  ctx,
  caller,
  input: body,
}: {
  ctx: CollectorContext
  caller: Caller
  input: TestMonitorInput
}) {
  const input = testMonitorInput.parse(body)
  const prefixed = <T>(field: 'domain' | 'service', build: () => T): T => {
    try {
      return build()
    } catch (error) {
      if (error instanceof z.ZodError) {
        const issue = error.issues[0]!
        throw new GuardError('VALIDATION_ERROR', `${[field, ...issue.path].join('.')}: ${issue.message}`)
      }
      if (error instanceof GuardError && error.code === 'VALIDATION_ERROR') {
        throw new GuardError('VALIDATION_ERROR', `${field}.${error.message}`)
      }
      throw error
    }
  }
  const proposed = input.domain
    ? prefixed('domain', () => domainMonitorInput(input.domain))
    : prefixed('service', () => serviceMonitorInput(input.service))
  const monitor = monitorInput.parse(proposed)
  await assertKnownLocations(ctx, [input.location])
  const target = probeTarget(monitor.target, monitor, ctx.probeCredentialsKey)
  const result = await runCheckOnProbe(
    ctx,
    {
      v: 1,
      id: `test-${newId()}`,
      organizationId: organizationScope(caller, undefined),
      target,
      intervalSeconds: monitor.checkInterval,
      timeoutSeconds: monitor.timeout,
      locations: [input.location],
      enabled: true,
    },
    input.location,
    'TIMEOUT',
  )
  const { v: _v, id: _id, monitorId: _monitor, organizationId: _organization, ...rest } = result
  return rest
}
