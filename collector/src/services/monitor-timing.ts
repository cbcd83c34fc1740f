import { GuardError } from '@guard/shared'

/**
 * Interval and timeout rules shared by every monitored thing (domains, services): a check must
 * end before the next one is due, so the timeout stays below the interval.
 */
export const TIMEOUT_BELOW_INTERVAL = 'timeout must be less than checkInterval'

/** 30 seconds, or less when the interval is shorter. */
export const defaultTimeout = (checkInterval: number) => Math.min(30, checkInterval - 1)

interface Timing {
  checkInterval: number
  timeout: number
}

/** A partial update: a shortened interval clamps the stored timeout unless a new one is given. */
export function timingAfterUpdate(
  current: Timing,
  input: { checkInterval?: number | undefined; timeout?: number | undefined },
): Timing {
  const checkInterval = input.checkInterval ?? current.checkInterval
  const timeout =
    input.timeout ?? (input.checkInterval ? Math.min(current.timeout, checkInterval - 1) : current.timeout)
  if (timeout >= checkInterval) throw new GuardError('VALIDATION_ERROR', `timeout: ${TIMEOUT_BELOW_INTERVAL}`)
  return { checkInterval, timeout }
}
