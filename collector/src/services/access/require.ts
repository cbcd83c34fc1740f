import { GuardError } from '@guard/shared'
import type { Caller } from '../../context.ts'
import { hasPermission, type Permission } from './permissions.ts'

/** Services reached from more than one edge (REST, MCP) check the permission themselves. */
export function requirePermission(caller: Caller, ...anyOf: Permission[]): void {
  if (!anyOf.some((permission) => hasPermission(caller.permissions, permission))) {
    throw new GuardError('FORBIDDEN', `Missing permission ${anyOf.join(' or ')}`)
  }
}
