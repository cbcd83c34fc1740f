import { GuardError } from '@guard/shared'
import type { Caller } from '../../context.ts'

/**
 * Someone signed in (API key or user token): the organizations they belong to, and the caller
 * (role, permissions) they are in each one.
 */
export interface Member {
  organizationIds: string[]
  callerFor(organizationId: string): Caller
}

/** Whose data a read covers: the public status pages, or the member's organizations. */
export type Audience = { kind: 'public'; organizationId: string | undefined } | { kind: 'members'; callers: Caller[] }

/**
 * Nobody signed in sees only public status pages (of `organizationId` when given). A member sees
 * each of their organizations, or the one named, which must be theirs: naming another
 * organization is refused, never answered with its data.
 */
export function audienceOf(member: Member | undefined, organizationId: string | undefined): Audience {
  if (!member) return { kind: 'public', organizationId }
  if (organizationId === undefined) return { kind: 'members', callers: member.organizationIds.map(member.callerFor) }
  if (!member.organizationIds.includes(organizationId)) {
    throw new GuardError('FORBIDDEN', 'You are not a member of that organization')
  }
  return { kind: 'members', callers: [member.callerFor(organizationId)] }
}

/**
 * A weighted mean over parts, each `[value, weight]`, rounded to two places. A part without a value
 * (nothing checked yet) counts for nothing; null when no part has one, as 0 would read as an outage.
 */
export function weightedMean(parts: Array<[number | null, number]>): number | null {
  const known = parts.filter((part): part is [number, number] => part[0] !== null)
  const weight = known.reduce((sum, [, part]) => sum + part, 0)
  if (weight === 0) return null
  return Math.round((known.reduce((sum, [value, part]) => sum + value * part, 0) / weight) * 100) / 100
}
