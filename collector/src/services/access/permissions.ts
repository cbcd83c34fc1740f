import { z } from 'zod'
import { ACTIONS, RESOURCES } from './resources.ts'

export { ACTIONS, RESOURCES }

export type Permission = `${(typeof RESOURCES)[number]}:${(typeof ACTIONS)[number]}`

const part = (values: readonly string[]) => `(?:\\*|${values.join('|')})`
const permissionPattern = new RegExp(`^${part(RESOURCES)}:${part(ACTIONS)}$`)
const scopePattern = new RegExp(`^${part(ACTIONS)}:${part(RESOURCES)}$`)

export const permissionString = z
  .string()
  .regex(
    permissionPattern,
    `a permission is <resource>:<action> with resource ${RESOURCES.join(', ')} or *, action read, write or *`,
  )
export const scopeString = z
  .string()
  .regex(
    scopePattern,
    `a scope is <action>:<resource> with action read, write or *, resource ${RESOURCES.join(', ')} or *`,
  )

/** `read:domains` → `domains:read`: scopes are stored as the permissions they grant. */
export const scopeToPermission = (scope: string): string => {
  const [action, resource] = scope.split(':')
  return `${resource}:${action}`
}

/** Whether `granted` (which may use `*` for the resource, the action or both) covers `needed`. */
export function hasPermission(granted: readonly string[], needed: string): boolean {
  const [resource, action] = needed.split(':')
  return granted.some((permission) => {
    if (permission === '*') return true
    const [grantedResource, grantedAction] = permission.split(':')
    return (
      (grantedResource === '*' || grantedResource === resource) && (grantedAction === '*' || grantedAction === action)
    )
  })
}

/** Whether holding `granted` covers every concrete permission `wanted` (wildcards included) stands for. */
export function covers(granted: readonly string[], wanted: string): boolean {
  const concrete = RESOURCES.flatMap((resource) => ACTIONS.map((action) => `${resource}:${action}`))
  return concrete.filter((permission) => hasPermission([wanted], permission)).every((p) => hasPermission(granted, p))
}
