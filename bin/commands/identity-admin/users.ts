import { parseArgs } from 'node:util'
import {
  addMember,
  createUser,
  MEMBERSHIP_ROLES,
  type MembershipRole,
  parseIdentityEnv,
  withIdentityStore,
} from '@guard/identity'
import { exitOnGuardError, printJson, usageError } from './output.ts'

const USAGE = `guard identity users create --email E --password P --name N [--picture URL] [--user-role R]
       [--org SLUG [--role ${MEMBERSHIP_ROLES.join('|')}]]`

const isMembershipRole = (value: string): value is MembershipRole =>
  (MEMBERSHIP_ROLES as readonly string[]).includes(value)

/** `guard identity users create`: prints the new user (never the password) as JSON. */
export async function usersCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args
  if (action !== 'create') usageError(USAGE)
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      picture: { type: 'string' },
      'user-role': { type: 'string' },
      org: { type: 'string' },
      role: { type: 'string', default: 'member' },
    },
  })
  const { email, password, name, org, role } = values
  if (!email || !password || !name || !isMembershipRole(role)) usageError(USAGE)
  const created = await withIdentityStore(parseIdentityEnv(), (sql) =>
    sql.transaction(async (tx) => {
      const user = await createUser(tx, { email, password, name, picture: values.picture, role: values['user-role'] })
      if (!org) return { ...user, organizations: [] }
      const membership = await addMember(tx, { organizationSlug: org, userId: user.id, role })
      return { ...user, organizations: [{ id: membership.organizationId, slug: org, role }] }
    }),
  ).catch(exitOnGuardError)
  printJson(created)
}
