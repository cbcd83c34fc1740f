import type { CheckResult } from '../contracts/check-result.ts'
import { newId } from '../ids.ts'
import { DEFAULT_ORGANIZATION } from '../runtime/organization.ts'

/** An `up` HTTP result of the default organization seen from `fra` now; tests override what they vary. */
export function sampleCheckResult(monitorId: string, overrides: Partial<CheckResult> = {}): CheckResult {
  return {
    v: 1,
    id: newId(),
    monitorId,
    organizationId: DEFAULT_ORGANIZATION.id,
    location: 'fra',
    kind: 'http',
    status: 'up',
    startedAt: new Date().toISOString(),
    responseTimeMs: 42,
    statusCode: 200,
    ...overrides,
  }
}
