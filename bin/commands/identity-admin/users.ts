import { randomBytes } from 'node:crypto'
import { MEMBERSHIP_ROLES } from '@guard/identity'
import { parseArgs, pickAction } from '../../cli-kit.ts'
import { callAdmin } from './admin-api.ts'
import { helpRequested, printJson, problem, requireOptions, requirePositionals, usageError } from './output.ts'

const USAGE = `guard identity users <action>
  create --email E --password P --name N [--picture URL] [--user-role user|admin] [--org ORG [--role ${MEMBERSHIP_ROLES.join('|')}]]
  list [--email E]
  get USER
  update USER [--name N] [--user-role user|admin] [--password P] [--disable | --enable]
  reset-password EMAIL [--password P]   (a generated password is printed once when --password is not given)
USER is a user id or an email; ORG an organization id or slug.`
const ACTIONS = ['create', 'list', 'get', 'update', 'reset-password'] as const
const scope = 'identity users'

interface User {
  id: string
  email: string
}

/** A user named by id or by email. */
export async function resolveUserId(ref: string): Promise<string> {
  if (!ref.includes('@')) return ref
  const { users } = await callAdmin<{ users: User[] }>({ method: 'GET', path: '/users', query: { email: ref } })
  const user = users[0]
  if (!user) throw problem('NOT_FOUND', `user ${ref} not found`)
  return user.id
}

const path = (id: string) => `/users/${encodeURIComponent(id)}`

export async function usersCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  const [word, ...rest] = args
  const action = pickAction(word, ACTIONS, scope)
  switch (action) {
    case 'create': {
      const { values } = parseArgs({
        args: rest,
        usage: USAGE,
        scope,
        options: {
          email: { type: 'string' },
          password: { type: 'string' },
          name: { type: 'string' },
          picture: { type: 'string' },
          'user-role': { type: 'string' },
          org: { type: 'string' },
          role: { type: 'string' },
        },
      })
      requireOptions('users', values, ['email', 'password', 'name'])
      return printJson(
        await callAdmin({
          method: 'POST',
          path: '/users',
          body: {
            email: values.email,
            password: values.password,
            name: values.name,
            ...(values.picture ? { picture: values.picture } : {}),
            ...(values['user-role'] ? { role: values['user-role'] } : {}),
            ...(values.org ? { organization: values.org } : {}),
            ...(values.role ? { membershipRole: values.role } : {}),
          },
        }),
      )
    }
    case 'list': {
      const { values } = parseArgs({ args: rest, options: { email: { type: 'string' } }, usage: USAGE, scope })
      return printJson(await callAdmin({ method: 'GET', path: '/users', query: { email: values.email } }))
    }
    case 'get': {
      const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true, usage: USAGE, scope })
      requirePositionals('users', positionals, ['USER'])
      return printJson(await callAdmin({ method: 'GET', path: path(await resolveUserId(positionals[0] as string)) }))
    }
    case 'update': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        usage: USAGE,
        scope,
        options: {
          name: { type: 'string' },
          'user-role': { type: 'string' },
          password: { type: 'string' },
          disable: { type: 'boolean' },
          enable: { type: 'boolean' },
        },
      })
      requirePositionals('users', positionals, ['USER'])
      if (values.disable && values.enable) usageError('users', '--disable and --enable exclude each other')
      const changes = {
        ...(values.name ? { name: values.name } : {}),
        ...(values['user-role'] ? { role: values['user-role'] } : {}),
        ...(values.password ? { password: values.password } : {}),
        ...(values.disable ? { disabled: true } : values.enable ? { disabled: false } : {}),
      }
      const id = await resolveUserId(positionals[0] as string)
      return printJson(await callAdmin({ method: 'PATCH', path: path(id), body: changes }))
    }
    case 'reset-password': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        usage: USAGE,
        scope,
        options: { password: { type: 'string' } },
      })
      requirePositionals('users', positionals, ['EMAIL'])
      const password = values.password ?? randomBytes(18).toString('base64url')
      const id = await resolveUserId(positionals[0] as string)
      const user = await callAdmin<User>({ method: 'PATCH', path: path(id), body: { password } })
      // A password the operator typed is theirs; only a generated one is shown, once.
      return printJson({ ...user, ...(values.password ? {} : { password }) })
    }
  }
}
