import { parseArgs } from 'node:util'
import { callAdmin } from './admin-api.ts'
import { helpRequested, printJson, usageError } from './output.ts'

const USAGE = 'guard identity audit [--limit N] [--action ACTION] [--before ENTRY_ID]   (newest first)'

export async function auditCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { limit: { type: 'string' }, action: { type: 'string' }, before: { type: 'string' } },
  })
  if (positionals.length > 0) usageError(USAGE)
  printJson(
    await callAdmin({
      method: 'GET',
      path: '/audit',
      query: { limit: values.limit, action: values.action, before: values.before },
    }),
  )
}
