import { parseArgs } from 'node:util'
import { MEMBERSHIP_ROLES } from '@guard/identity'
import { callAdmin } from './admin-api.ts'
import { helpRequested, printJson, usageError } from './output.ts'
import { resolveUserId } from './users.ts'

const ROLES = MEMBERSHIP_ROLES.join('|')
const USAGE = `guard identity orgs <action>
  create --name N --slug S [--plan PLAN|none]   (default GUARD_DEFAULT_PLAN)
  list
  get ORG
  rename ORG --name N
  set-plan ORG PLAN|none   (none = no limits)
  members ORG
  add-member ORG USER [--role ${ROLES}]   (default member)
  set-role ORG USER --role ${ROLES}
  remove-member ORG USER
  invite ORG EMAIL [--role ${ROLES}]   (prints the single-use link unless GUARD_SMTP_URL e-mails it)
ORG is an organization id or slug; USER a user id or email.`

const orgPath = (org: string) => `/organizations/${encodeURIComponent(org)}`

/** `none` is the spelled-out "no plan, no limits"; anything else must be a catalog plan id. */
const planArgument = (value: string): string | null => (value === 'none' ? null : value)

export async function orgsCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  const [action, ...rest] = args
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { name: { type: 'string' }, slug: { type: 'string' }, role: { type: 'string' }, plan: { type: 'string' } },
  })
  const [org, user, ...extra] = positionals
  if (extra.length > 0) usageError(USAGE)
  switch (action) {
    case 'create':
      if (!values.name || !values.slug || org) usageError(USAGE)
      return printJson(
        await callAdmin({
          method: 'POST',
          path: '/organizations',
          body: {
            name: values.name,
            slug: values.slug,
            ...(values.plan === undefined ? {} : { plan: planArgument(values.plan) }),
          },
        }),
      )
    case 'list':
      return printJson(await callAdmin({ method: 'GET', path: '/organizations' }))
    case 'get':
      if (!org) usageError(USAGE)
      return printJson(await callAdmin({ method: 'GET', path: orgPath(org) }))
    case 'rename':
      if (!org || !values.name) usageError(USAGE)
      return printJson(await callAdmin({ method: 'PATCH', path: orgPath(org), body: { name: values.name } }))
    case 'set-plan':
      // The second positional is the plan here, not a user.
      if (!org || !user) usageError(USAGE)
      return printJson(
        await callAdmin({ method: 'PUT', path: `${orgPath(org)}/plan`, body: { plan: planArgument(user) } }),
      )
    case 'members':
      if (!org) usageError(USAGE)
      return printJson(await callAdmin({ method: 'GET', path: `${orgPath(org)}/members` }))
    case 'add-member': {
      if (!org || !user) usageError(USAGE)
      const member = user.includes('@') ? { email: user } : { userId: user }
      return printJson(
        await callAdmin({
          method: 'POST',
          path: `${orgPath(org)}/members`,
          body: { ...member, ...(values.role ? { role: values.role } : {}) },
        }),
      )
    }
    case 'set-role':
      if (!org || !user || !values.role) usageError(USAGE)
      return printJson(
        await callAdmin({
          method: 'PATCH',
          path: `${orgPath(org)}/members/${encodeURIComponent(await resolveUserId(user))}`,
          body: { role: values.role },
        }),
      )
    case 'remove-member':
      if (!org || !user) usageError(USAGE)
      return printJson(
        await callAdmin({
          method: 'DELETE',
          path: `${orgPath(org)}/members/${encodeURIComponent(await resolveUserId(user))}`,
        }),
      )
    case 'invite':
      if (!org || !user) usageError(USAGE)
      return printJson(
        await callAdmin({
          method: 'POST',
          path: `${orgPath(org)}/invitations`,
          body: { email: user, ...(values.role ? { role: values.role } : {}) },
        }),
      )
    default:
      usageError(USAGE)
  }
}
