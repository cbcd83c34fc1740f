import { parseArgs } from '../../cli-kit.ts'
import { callAdmin } from './admin-api.ts'
import { helpRequested, printJson, requirePositionals } from './output.ts'

const USAGE = 'guard identity audit [--limit N] [--action ACTION] [--before ENTRY_ID]   (newest first)'

export async function auditCommand(args: string[]): Promise<void> {
  helpRequested(args, USAGE)
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { limit: { type: 'string' }, action: { type: 'string' }, before: { type: 'string' } },
    usage: USAGE,
    scope: 'identity audit',
  })
  requirePositionals('audit', positionals, [])
  printJson(
    await callAdmin({
      method: 'GET',
      path: '/audit',
      query: { limit: values.limit, action: values.action, before: values.before },
    }),
  )
}
