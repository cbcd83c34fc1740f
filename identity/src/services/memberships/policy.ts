import { GuardError } from '@guard/shared'
import type { MembershipRole } from '../organizations/add-member.ts'

/** A caller's standing in one organization, as the organization routes resolve it. */
export interface OrganizationCaller {
  /** Their membership role now; null when they are not a member. */
  role: MembershipRole | null
  /** The token is a first-party application's (or an admin token). */
  firstParty: boolean
  /** A platform administrator, who may manage every organization. */
  platformAdmin: boolean
}

const managers: ReadonlySet<MembershipRole | null> = new Set(['owner', 'admin'])

/** Reading an organization and its members: its members, through Guard's own applications, and platform admins. */
export function assertMayRead(caller: OrganizationCaller): void {
  if (caller.platformAdmin) return
  requireFirstParty(caller)
  if (caller.role === null) throw new GuardError('FORBIDDEN', 'you are not a member of this organization')
}

/** Renaming is the organization's owners' (the collector's roles give `admin` no power over the organization itself). */
export function assertMayRename(caller: OrganizationCaller): void {
  if (caller.platformAdmin) return
  requireFirstParty(caller)
  if (caller.role !== 'owner') throw new GuardError('FORBIDDEN', 'only an owner may rename the organization')
}

/**
 * Changing or removing a member: owners may touch anyone; admins everyone below owner, and may make
 * nobody an owner (as only an owner may invite an owner). That the last owner stays is the
 * membership services' rule, for every caller.
 */
export function assertMayManageMember(
  caller: OrganizationCaller,
  change: { currentRole: MembershipRole; newRole?: MembershipRole | undefined },
): void {
  if (caller.platformAdmin) return
  requireFirstParty(caller)
  if (!managers.has(caller.role)) {
    throw new GuardError('FORBIDDEN', 'only owners and admins of the organization may manage its members')
  }
  if (caller.role === 'owner') return
  if (change.currentRole === 'owner') throw new GuardError('FORBIDDEN', 'only an owner may change or remove an owner')
  if (change.newRole === 'owner') throw new GuardError('FORBIDDEN', 'only an owner may make someone an owner')
}

function requireFirstParty(caller: OrganizationCaller): void {
  if (!caller.firstParty) {
    throw new GuardError('FORBIDDEN', "memberships are managed from Guard's own applications, not third-party ones")
  }
}

/** An organization's upstream sign-in decides who may become a member: its owners' setting, like the name. */
export function assertMayConfigureFederation(caller: OrganizationCaller): void {
  if (caller.platformAdmin) return
  requireFirstParty(caller)
  if (caller.role !== 'owner')
    throw new GuardError('FORBIDDEN', "only an owner may configure the organization's sign-in")
}

/** Whether members must use a second factor is the owners' choice, like the organization's name. */
export function assertMayChangeSecondFactor(caller: OrganizationCaller): void {
  if (caller.platformAdmin) return
  requireFirstParty(caller)
  if (caller.role !== 'owner') {
    throw new GuardError('FORBIDDEN', 'only an owner may change whether members must use a second factor')
  }
}
