import { z } from 'zod'
import { answerHelp, COLLECTOR, fetchService, parseArgs, pickAction, UsageError } from '../cli-kit.ts'
import { collectorApiAccess } from './api-access.ts'

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
  const { base, apiKey } = await collectorApiAccess(env, 'monitor test')
  const body = values.url
    ? { location: values.location, domain: { url: values.url, ...parseJson('--options', values.options) } }
    : { location: values.location, service: parseJson('--service', values.service) }
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
