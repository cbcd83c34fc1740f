import { parseArgs } from 'node:util'
import { commonEnv, parseEnv, readCredentials } from '@guard/shared'
import { z } from 'zod'

const deadLettersEnv = z.object({
  GUARD_DATA_DIR: commonEnv.GUARD_DATA_DIR,
  GUARD_COLLECTOR_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4001'),
  /** Default: identity's admin token `guard start` wrote to GUARD_DATA_DIR/credentials.json. */
  GUARD_ADMIN_TOKEN: z.string().min(1).optional(),
})

export const deadLettersUsage = `Usage: guard dead-letters list [--source results|devices|events] [--limit N]
       guard dead-letters replay ID
       guard dead-letters drop ID

Messages the collector could never store (a result, device heartbeat or event that breaks its
contract or that a store refuses), through the collector's /api/admin/dead-letters: list them
with the reason, publish one again on its original subject after a fix (replay), or forget it
(drop). Prints JSON. Exit status: 0 done, 2 refused. Env: GUARD_COLLECTOR_URL, GUARD_ADMIN_TOKEN
(default: the admin token in GUARD_DATA_DIR/credentials.json).`

class UsageError extends Error {}

/** `guard dead-letters …`: prints what the collector answered; returns the exit status. */
export async function runDeadLettersCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (text: string) => void = (text) => process.stdout.write(`${text}\n`),
): Promise<number> {
  const [action, ...rest] = args
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { source: { type: 'string' }, limit: { type: 'string' } },
      allowPositionals: true,
    })
    const config = parseEnv('guard dead-letters', deadLettersEnv, env)
    const token = config.GUARD_ADMIN_TOKEN ?? (await readCredentials(config.GUARD_DATA_DIR)).adminToken
    if (!token) throw new UsageError('set GUARD_ADMIN_TOKEN (no credentials.json with an admin token found)')
    const call = (() => {
      if (action === 'list') {
        const url = new URL('/api/admin/dead-letters', config.GUARD_COLLECTOR_URL)
        if (values.source) url.searchParams.set('source', values.source)
        if (values.limit) url.searchParams.set('limit', values.limit)
        return { method: 'GET', url }
      }
      const id = positionals[0]
      if ((action === 'replay' || action === 'drop') && id) {
        const path = `/api/admin/dead-letters/${encodeURIComponent(id)}${action === 'replay' ? '/replay' : ''}`
        return { method: action === 'replay' ? 'POST' : 'DELETE', url: new URL(path, config.GUARD_COLLECTOR_URL) }
      }
      throw new UsageError(
        action === 'replay' || action === 'drop'
          ? `${action} needs the dead letter's id`
          : `unknown dead-letters command ${action ?? '(none)'}`,
      )
    })()
    const response = await fetch(call.url, {
      method: call.method,
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(30_000),
    })
    const answer = (await response.json()) as { data?: unknown }
    print(JSON.stringify(answer.data ?? answer, null, 2))
    return response.ok ? 0 : 2
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    print(`${error.message}\n\n${deadLettersUsage}`)
    return 2
  }
}
