import { GuardError } from '@guard/shared'
import type { Caller } from '../../context.ts'

/**
 * The organization a request works on: the one it names, which must be one of the caller's,
 * or the caller's own. Naming any other organization is refused rather than silently ignored.
 */
export function organizationScope(caller: Caller, requested: string | undefined): string {
  if (requested === undefined || requested === '') return caller.organizationId
  if (!caller.organizationIds.includes(requested)) {
    throw new GuardError('FORBIDDEN', 'You are not a member of that organization')
  }
  return requested
}
