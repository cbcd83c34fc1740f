import { type AllowedTarget, resolveAllowedTarget } from '@guard/shared/net'
import type { CheckContext } from '../checker.ts'

/** The address a check may connect to, resolved and vetted under the check's own timeout. */
export const vetTarget = (hostname: string, context: CheckContext): Promise<AllowedTarget> =>
  resolveAllowedTarget(hostname, { allowPrivate: context.allowPrivate, signal: context.signal })
