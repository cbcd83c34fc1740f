import { parseArgs, pickAction } from '../../cli-kit.ts'
import { callAdmin } from './admin-api.ts'
import { helpRequested, printJson, requireOptions, requirePositionals } from './output.ts'

const USAGE = `guard identity clients <action>
  create --name N --redirect-uri U [--redirect-uri U2] [--post-logout-redirect-uri U] [--public] [--no-require-pkce] [--first-party] [--scope S ...]
  list
  get CLIENT_ID
  rotate-secret CLIENT_ID   (prints the new secret once)
  delete CLIENT_ID`
const ACTIONS = ['create', 'list', 'get', 'rotate-secret', 'delete'] as const
const scope = 'identity clients'

const path = (id: string) => `/clients/${encodeURIComponent(id)}`

/** `create` and `rotate-secret` print client_secret for a confidential client: the only time it is shown. */
export async function clientsCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  const [word, ...rest] = args
  const action = pickAction(word, ACTIONS, scope)
  if (action === 'create') {
    const { values } = parseArgs({
      args: rest,
      usage: USAGE,
      scope,
      options: {
        name: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        'post-logout-redirect-uri': { type: 'string', multiple: true },
        public: { type: 'boolean', default: false },
        'no-require-pkce': { type: 'boolean', default: false },
        'first-party': { type: 'boolean', default: false },
        scope: { type: 'string', multiple: true },
      },
    })
    requireOptions('clients', values, ['name', 'redirect-uri'])
    const redirectUris = values['redirect-uri'] ?? []
    return printJson(
      await callAdmin({
        method: 'POST',
        path: '/clients',
        body: {
          name: values.name,
          redirect_uris: redirectUris,
          post_logout_redirect_uris: values['post-logout-redirect-uri'] ?? [],
          public: values.public,
          require_pkce: !values['no-require-pkce'],
          first_party: values['first-party'],
          ...(values.scope ? { allowed_scopes: values.scope } : {}),
        },
      }),
    )
  }
  const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true, usage: USAGE, scope })
  requirePositionals('clients', positionals, action === 'list' ? [] : ['CLIENT_ID'])
  const id = positionals[0] as string
  if (action === 'list') return printJson(await callAdmin({ method: 'GET', path: '/clients' }))
  if (action === 'get') return printJson(await callAdmin({ method: 'GET', path: path(id) }))
  if (action === 'rotate-secret') return printJson(await callAdmin({ method: 'POST', path: `${path(id)}/secret` }))
  return printJson(await callAdmin({ method: 'DELETE', path: path(id) }))
}
