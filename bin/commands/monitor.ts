import { parseArgs } from 'node:util'
import { commonEnv, parseEnv, readCredentials } from '@guard/shared'
import { z } from 'zod'

const monitorCommandEnv = z.object({
  GUARD_DATA_DIR: commonEnv.GUARD_DATA_DIR,
  GUARD_COLLECTOR_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4001'),
  /** Default: the API key `guard start` wrote to GUARD_DATA_DIR/credentials.json. */
  GUARD_API_KEY: z.string().min(1).optional(),
})

export const monitorUsage = `Usage: guard monitor test --location CODE (--url URL [--options JSON] | --service JSON)

Runs one check now from a probe of CODE through POST /api/monitors/test and prints the result;
nothing is stored. --options adds domain fields (e.g. '{"keyword":"Welcome","method":"HEAD"}');
--service takes a service as POST /api/services does. Exit status: 0 up or degraded, 1 down,
2 refused by the collector. Env: GUARD_COLLECTOR_URL, GUARD_API_KEY (default: the key in
GUARD_DATA_DIR/credentials.json).`

const parseJson = (flag: string, text: string | undefined): Record<string, unknown> | undefined => {
  if (text === undefined) return undefined
  try {
    return z.record(z.string(), z.unknown()).parse(JSON.parse(text))
  } catch {
    throw new UsageError(`${flag} must be a JSON object`)
  }
}

class UsageError extends Error {}

/** `guard monitor test …`: prints what the collector answered; returns the exit status. */
export async function runMonitorCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (text: string) => void = (text) => process.stdout.write(`${text}\n`),
): Promise<number> {
  const [action, ...rest] = args
  try {
    if (action !== 'test') throw new UsageError(`unknown monitor command ${action ?? '(none)'}`)
    const { values } = parseArgs({
      args: rest,
      options: {
        location: { type: 'string', short: 'l' },
        url: { type: 'string' },
        options: { type: 'string' },
        service: { type: 'string' },
      },
    })
    if (!values.location) throw new UsageError('--location is required')
    if ((values.url === undefined) === (values.service === undefined)) {
      throw new UsageError('give --url (a domain) or --service JSON')
    }
    const config = parseEnv('guard monitor', monitorCommandEnv, env)
    const apiKey = config.GUARD_API_KEY ?? (await readCredentials(config.GUARD_DATA_DIR)).apiKey
    if (!apiKey) throw new UsageError('set GUARD_API_KEY (no credentials.json with an API key found)')
    const body = values.url
      ? { location: values.location, domain: { url: values.url, ...parseJson('--options', values.options) } }
      : { location: values.location, service: parseJson('--service', values.service) }
    const response = await fetch(new URL('/api/monitors/test', config.GUARD_COLLECTOR_URL), {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(330_000),
    })
    const answer = (await response.json()) as { data?: { status?: string } }
    print(JSON.stringify(answer.data ?? answer, null, 2))
    if (!response.ok) return 2
    return answer.data?.status === 'down' ? 1 : 0
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    print(`${error.message}\n\n${monitorUsage}`)
    return 2
  }
}
