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

const monitorCommandEnv = z.object({
  GUARD_DATA_DIR: commonEnv.GUARD_DATA_DIR,
  /** Default: the collector `guard start` recorded in credentials.json, else the local default. */
  GUARD_COLLECTOR_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Default: the API key `guard start` wrote to GUARD_DATA_DIR/credentials.json. */
  GUARD_API_KEY: z.string().min(1).optional(),
})

export const monitorUsage = `Usage: guard monitor test --location CODE (--url URL [--options JSON] | --service JSON)

Runs one check now from a probe of CODE through POST /api/monitors/test and prints the result;
nothing is stored. --options adds domain fields (e.g. '{"keyword":"Welcome","method":"HEAD"}');
--service takes a service as POST /api/services does, with any protocol GET /api/protocols lists
(e.g. '{"name":"ntp","protocol":"udp","protocolConfig":{"host":"pool.ntp.org","port":123}}').
Exit status: 0 up or degraded, 1 down,
2 refused by the collector, 69 no collector answers. Env: GUARD_COLLECTOR_URL (default: the
collector recorded in GUARD_DATA_DIR/credentials.json, else http://127.0.0.1:4001), GUARD_API_KEY
(default: the key in credentials.json).`

const parseJson = (flag: string, text: string | undefined): Record<string, unknown> | undefined => {
  if (text === undefined) return undefined
  try {
    return z.record(z.string(), z.unknown()).parse(JSON.parse(text))
  } catch {
    throw new UsageError(`${flag} must be a JSON object`, 'monitor test')
  }
}

/** `guard monitor test …`: prints what the collector answered; returns the exit status. */
export async function runMonitorCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (text: string) => void = (text) => process.stdout.write(`${text}\n`),
): Promise<number> {
  answerHelp(args, monitorUsage)
  const [action, ...rest] = args
  pickAction(action, ['test'], 'monitor')
  const { values } = parseArgs({
    args: rest,
    options: {
      location: { type: 'string', short: 'l' },
      url: { type: 'string' },
      options: { type: 'string' },
      service: { type: 'string' },
    },
    usage: monitorUsage,
    scope: 'monitor test',
  })
  if (!values.location) throw new UsageError('--location is required', 'monitor test')
  if ((values.url === undefined) === (values.service === undefined)) {
    throw new UsageError('give --url (a domain) or --service JSON', 'monitor test')
  }
  const config = parseEnv('guard monitor', monitorCommandEnv, env)
  const saved = await readCredentials(config.GUARD_DATA_DIR)
  const apiKey = config.GUARD_API_KEY ?? saved.apiKey
  if (!apiKey) throw new UsageError('set GUARD_API_KEY (no credentials.json with an API key found)', 'monitor test')
  const body = values.url
    ? { location: values.location, domain: { url: values.url, ...parseJson('--options', values.options) } }
    : { location: values.location, service: parseJson('--service', values.service) }
  const base = config.GUARD_COLLECTOR_URL ?? saved.collectorUrl ?? DEFAULT_COLLECTOR_URL
  const response = await fetchService(COLLECTOR, new URL('/api/monitors/test', base), {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(330_000),
  })
  const answer = (await response.json()) as { data?: { status?: string } }
  print(JSON.stringify(answer.data ?? answer, null, 2))
  if (!response.ok) return 2
  return answer.data?.status === 'down' ? 1 : 0
}
