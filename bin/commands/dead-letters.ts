import { commonEnv, parseEnv, readCredentials } from '@guard/shared'
import { z } from 'zod'
import {
  answerHelp,
  COLLECTOR,
  DEFAULT_COLLECTOR_URL,
  fetchService,
  parseArgs,
  pickAction,
  UsageError,
} from '../cli-kit.ts'

const deadLettersEnv = z.object({
  GUARD_DATA_DIR: commonEnv.GUARD_DATA_DIR,
  /** Default: the collector `guard start` recorded in credentials.json, else the local default. */
  GUARD_COLLECTOR_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Default: identity's admin token `guard start` wrote to GUARD_DATA_DIR/credentials.json. */
  GUARD_ADMIN_TOKEN: z.string().min(1).optional(),
})

export const deadLettersUsage = `Usage: guard dead-letters list [--source results|devices|events|pings] [--limit N]
       guard dead-letters replay ID
       guard dead-letters drop ID

Messages the collector could never store (a result, device heartbeat or event that breaks its
contract or that a store refuses), through the collector's /api/admin/dead-letters: list them
with the reason, publish one again on its original subject after a fix (replay), or forget it
(drop). Prints JSON. Exit status: 0 done, 2 refused, 69 no collector answers.
Env: GUARD_COLLECTOR_URL (default: the collector recorded in GUARD_DATA_DIR/credentials.json,
else http://127.0.0.1:4001), GUARD_ADMIN_TOKEN (default: the admin token in credentials.json).`

const ACTIONS = ['list', 'replay', 'drop'] as const

/** `guard dead-letters …`: prints what the collector answered; returns the exit status. */
export async function runDeadLettersCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (text: string) => void = (text) => process.stdout.write(`${text}\n`),
): Promise<number> {
  answerHelp(args, deadLettersUsage)
  const [word, ...rest] = args
  const action = pickAction(word, ACTIONS, 'dead-letters')
  const scope = `dead-letters ${action}`
  const list = action === 'list'
  // --source and --limit narrow a list; replay and drop take only the id.
  const { values, positionals } = parseArgs({
    args: rest,
    options: list ? { source: { type: 'string' }, limit: { type: 'string' } } : {},
    allowPositionals: !list,
    usage: deadLettersUsage,
    scope,
  })
  const [id, ...extra] = positionals
  if (!list && !id) throw new UsageError(`${action} needs the dead letter's id`, scope)
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`, scope)
  const config = parseEnv('guard dead-letters', deadLettersEnv, env)
  const saved = await readCredentials(config.GUARD_DATA_DIR)
  const token = config.GUARD_ADMIN_TOKEN ?? saved.adminToken
  if (!token) throw new UsageError('set GUARD_ADMIN_TOKEN (no credentials.json with an admin token found)', scope)
  const base = config.GUARD_COLLECTOR_URL ?? saved.collectorUrl ?? DEFAULT_COLLECTOR_URL
  const url = new URL(
    list
      ? '/api/admin/dead-letters'
      : `/api/admin/dead-letters/${encodeURIComponent(id ?? '')}${action === 'replay' ? '/replay' : ''}`,
    base,
  )
  for (const [name, value] of Object.entries(values)) if (typeof value === 'string') url.searchParams.set(name, value)
  const response = await fetchService(COLLECTOR, url, {
    method: { list: 'GET', replay: 'POST', drop: 'DELETE' }[action],
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(30_000),
  })
  const answer = (await response.json()) as { data?: unknown }
  print(JSON.stringify(answer.data ?? answer, null, 2))
  return response.ok ? 0 : 2
}
