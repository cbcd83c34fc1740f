import { parseArgs } from 'node:util'
import { createOrganization, parseIdentityEnv, withIdentityStore } from '@guard/identity'
import { exitOnGuardError, printJson, usageError } from './output.ts'

const USAGE = 'guard identity orgs create --name N --slug S'

export async function orgsCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args
  if (action !== 'create') usageError(USAGE)
  const { values } = parseArgs({ args: rest, options: { name: { type: 'string' }, slug: { type: 'string' } } })
  const { name, slug } = values
  if (!name || !slug) usageError(USAGE)
  printJson(
    await withIdentityStore(parseIdentityEnv(), (sql) => createOrganization(sql, { name, slug })).catch(
      exitOnGuardError,
    ),
  )
}
