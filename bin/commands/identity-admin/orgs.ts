import { MEMBERSHIP_ROLES } from '@guard/identity'
import { parseArgs, pickAction } from '../../cli-kit.ts'
import { callAdmin } from './admin-api.ts'
import { helpRequested, printJson, requireOptions, requirePositionals } from './output.ts'
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
/** The positionals each action takes, named as the usage names them. */
const POSITIONALS = {
  create: [],
  list: [],
  get: ['ORG'],
  rename: ['ORG'],
  'set-plan': ['ORG', 'PLAN'],
  members: ['ORG'],
  'add-member': ['ORG', 'USER'],
  'set-role': ['ORG', 'USER'],
  'remove-member': ['ORG', 'USER'],
  invite: ['ORG', 'EMAIL'],
} satisfies Record<string, string[]>
const ACTIONS = Object.keys(POSITIONALS) as Array<keyof typeof POSITIONALS>

const orgPath = (org: string) => `/organizations/${encodeURIComponent(org)}`

/** `none` is the spelled-out "no plan, no limits"; anything else must be a catalog plan id. */
const planArgument = (value: string): string | null => (value === 'none' ? null : value)

export async function orgsCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  const [word, ...rest] = args
  const action = pickAction(word, ACTIONS, 'identity orgs')
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { name: { type: 'string' }, slug: { type: 'string' }, role: { type: 'string' }, plan: { type: 'string' } },
    usage: USAGE,
    scope: 'identity orgs',
  })
  requirePositionals('orgs', positionals, POSITIONALS[action])
  if (action === 'create') requireOptions('orgs', values, ['name', 'slug'])
  if (action === 'rename') requireOptions('orgs', values, ['name'])
  if (action === 'set-role') requireOptions('orgs', values, ['role'])
  // requirePositionals vouched for as many as the action names.
  const org = positionals[0] as string
  const user = positionals[1] as string
  switch (action) {
    case 'create':
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
      return printJson(await callAdmin({ method: 'GET', path: orgPath(org) }))
    case 'rename':
      return printJson(await callAdmin({ method: 'PATCH', path: orgPath(org), body: { name: values.name } }))
    case 'set-plan':
      // The second positional is the plan here, not a user.
      return printJson(
        await callAdmin({ method: 'PUT', path: `${orgPath(org)}/plan`, body: { plan: planArgument(user) } }),
      )
    case 'members':
      return printJson(await callAdmin({ method: 'GET', path: `${orgPath(org)}/members` }))
    case 'add-member': {
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
      return printJson(
        await callAdmin({
          method: 'PATCH',
          path: `${orgPath(org)}/members/${encodeURIComponent(await resolveUserId(user))}`,
          body: { role: values.role },
        }),
      )
    case 'remove-member':
      return printJson(
        await callAdmin({
          method: 'DELETE',
          path: `${orgPath(org)}/members/${encodeURIComponent(await resolveUserId(user))}`,
        }),
      )
    case 'invite':
      return printJson(
        await callAdmin({
          method: 'POST',
          path: `${orgPath(org)}/invitations`,
          body: { email: user, ...(values.role ? { role: values.role } : {}) },
        }),
      )
  }
}
