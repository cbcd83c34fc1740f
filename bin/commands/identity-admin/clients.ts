import { parseArgs } from 'node:util'
import { createClient, parseIdentityEnv, withIdentityStore } from '@guard/identity'
import { exitOnGuardError, printJson, usageError } from './output.ts'

const USAGE =
  'guard identity clients create --name N --redirect-uri U [--redirect-uri U2] [--public] [--no-require-pkce] [--first-party] [--scope S ...]'

/** Prints client_id and, for a confidential client, client_secret: the only time the secret is shown. */
export async function clientsCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args
  if (action !== 'create') usageError(USAGE)
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      public: { type: 'boolean', default: false },
      'no-require-pkce': { type: 'boolean', default: false },
      'first-party': { type: 'boolean', default: false },
      scope: { type: 'string', multiple: true },
    },
  })
  const { name } = values
  const redirectUris = values['redirect-uri'] ?? []
  if (!name || redirectUris.length === 0) usageError(USAGE)
  const client = await withIdentityStore(parseIdentityEnv(), (sql) =>
    createClient(sql, {
      name,
      redirectUris,
      isPublic: values.public,
      requirePkce: !values['no-require-pkce'],
      firstParty: values['first-party'],
      allowedScopes: values.scope,
    }),
  ).catch(exitOnGuardError)
  printJson(client)
}
