import { answerHelp, COLLECTOR, fetchService, parseArgs, pickAction, UsageError } from '../cli-kit.ts'
import { collectorApiAccess } from './api-access.ts'

export const channelsUsage = `Usage: guard channels list
       guard channels test ID

list prints the organization's notification channels (GET /api/notification-channels) with their
state; test sends a test message to channel ID now (POST /api/notification-channels/ID/test) and
prints the service's answer. Exit status: 0 sent, 1 the service refused it, 2 refused by the
collector, 69 no collector answers. Env: GUARD_COLLECTOR_URL, GUARD_API_KEY (defaults from
GUARD_DATA_DIR/credentials.json, as for guard monitor).`

/** `guard channels …`: prints what the collector answered; returns the exit status. */
export async function runChannelsCommand(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  print: (text: string) => void = (text) => process.stdout.write(`${text}\n`),
): Promise<number> {
  answerHelp(args, channelsUsage)
  const [word, ...rest] = args
  const action = pickAction(word, ['list', 'test'] as const, 'channels')
  const scope = `channels ${action}`
  const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true, usage: channelsUsage, scope })
  const [id, ...extra] = positionals
  if (action === 'test' && !id) throw new UsageError("test needs the channel's id", scope)
  if ((action === 'list' && id) || extra.length > 0)
    throw new UsageError(`unexpected argument '${extra[0] ?? id}'`, scope)
  const { base, apiKey } = await collectorApiAccess(env, scope)
  const path =
    action === 'list' ? '/api/notification-channels' : `/api/notification-channels/${encodeURIComponent(id!)}/test`
  const response = await fetchService(COLLECTOR, new URL(path, base), {
    method: action === 'list' ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
    signal: AbortSignal.timeout(30_000),
  })
  const answer = (await response.json()) as { data?: { ok?: boolean } }
  print(JSON.stringify(answer.data ?? answer, null, 2))
  if (!response.ok) return 2
  return action === 'test' && answer.data?.ok === false ? 1 : 0
}
