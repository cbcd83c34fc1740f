import { realpathSync } from 'node:fs'
import { isSea } from 'node:sea'
import {
  agentNodeFlags,
  enrollDevice,
  installSystemdUnit,
  inventoryGarbageCollector,
  loadAgentConfig,
  parseAgentEnv,
  startAgent,
} from '@guard/agent'
import { createLogger } from '@guard/shared/logger'
import { closeOnSignals } from '@guard/shared/process'
import { connectionFailure, HelpRequested, parseArgs, pickAction, UnavailableError, UsageError } from '../cli-kit.ts'

const runUsage = 'guard agent [--config FILE] [--collector URL] [--device ID] [--token TOKEN] [--interval SECONDS]'
const enrollUsage =
  'guard agent enroll --collector URL --key API_KEY --name NAME [--tag T]... [--config FILE] [--interval SECONDS]'
const installUsage =
  'guard agent install [--user guard-agent] [--config FILE] [--unit /etc/systemd/system/guard-agent.service]'
const usage = `Usage:
  ${runUsage}
  ${enrollUsage}
  ${installUsage}

Runs the device agent (posts this machine's metrics to the collector's /agent every interval),
enrols this machine as a device, or installs the agent as a systemd service. The agent shipped
alone (GET /agent/download: node guard-agent.mjs, or the guard-agent executable) takes the same
words and options after it.`

/**
 * How this agent starts: the single executable, or Node with the agent's file, which argv[1] is
 * (bin/guard.mjs puts dist/guard-agent.mjs there), with the agent's Node flags when `flags`.
 */
function thisAgent({ flags }: { flags: boolean }): string[] {
  if (isSea()) return [process.execPath]
  return [process.execPath, ...(flags ? agentNodeFlags() : []), realpathSync(process.argv[1] ?? 'guard-agent.mjs')]
}

/** Runs the device agent, or enrols this machine, or installs the agent as a systemd service. */
export async function runAgent(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [sub, ...rest] = args
  // An action is a word; without one (options only) the agent itself runs.
  if (sub !== undefined && !sub.startsWith('-')) {
    const action = pickAction(sub, ['enroll', 'install', 'help'], 'agent')
    if (action === 'help') throw new HelpRequested(usage)
    return action === 'enroll' ? enroll(rest) : install(rest)
  }
  const { values } = parseArgs({
    args,
    usage,
    scope: 'agent',
    options: {
      config: { type: 'string' },
      collector: { type: 'string' },
      device: { type: 'string' },
      token: { type: 'string' },
      interval: { type: 'string' },
    },
  })
  const agentEnv = parseAgentEnv(env)
  const config = loadAgentConfig(agentEnv, values)
  // JSON lines always: pino's pretty transport runs in a worker the agent's bundle does not ship.
  const log = createLogger({ name: 'agent', level: agentEnv.LOG_LEVEL, pretty: false })
  log.info(
    {
      collector: config.collectorUrl,
      device: config.deviceId,
      interval: config.intervalSeconds,
      spool: config.spoolDir,
    },
    'agent started',
  )
  const agent = await startAgent(config, log, { afterInventory: inventoryGarbageCollector() })
  closeOnSignals(log, () => agent.stop())
}

async function enroll(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    usage: `Usage: ${enrollUsage}\n\nEnrols this machine as a device of the organization API_KEY belongs to and writes its token to FILE.`,
    scope: 'agent enroll',
    options: {
      collector: { type: 'string' },
      key: { type: 'string' },
      name: { type: 'string' },
      tag: { type: 'string', multiple: true },
      config: { type: 'string' },
      interval: { type: 'string' },
    },
  })
  const { collector, key, name } = values
  if (!collector || !key || !name) {
    const missing = Object.entries({ collector, key, name }).filter(([, value]) => !value)
    throw new UsageError(`missing ${missing.map(([option]) => `--${option}`).join(', ')}`, 'agent enroll')
  }
  const interval = values.interval ? Number(values.interval) : undefined
  const { deviceId, configPath } = await enrollDevice({
    collectorUrl: collector,
    apiKey: key,
    name,
    ...(values.tag ? { tags: values.tag } : {}),
    ...(values.config ? { configPath: values.config } : {}),
    ...(interval ? { intervalSeconds: interval } : {}),
  }).catch((error: unknown) => {
    const code = connectionFailure(error)
    if (!code) throw error
    throw new UnavailableError(`the collector at ${collector} is not answering (${code}); check --collector`)
  })
  process.stdout.write(
    `Enrolled device ${deviceId}; its token is in ${configPath} (mode 0600).\nStart the agent: ${thisAgent({ flags: false }).join(' ')} --config ${configPath}\n`,
  )
}

async function install(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    usage: `Usage: ${installUsage}\n\nWrites a systemd unit that runs the agent as USER with the configuration FILE.`,
    scope: 'agent install',
    options: {
      user: { type: 'string', default: 'guard-agent' },
      config: { type: 'string', default: '/etc/guard/agent.json' },
      unit: { type: 'string', default: '/etc/systemd/system/guard-agent.service' },
    },
  })
  const agent = thisAgent({ flags: false }).join(' ')
  const steps = await installSystemdUnit({
    unitPath: values.unit,
    execStart: thisAgent({ flags: true }).join(' '),
    configPath: values.config,
    user: values.user,
  })
  process.stdout.write(
    `Wrote ${values.unit}. The agent runs as ${values.user} and reads ${values.config}` +
      ` (run ${agent} enroll --config ${values.config} first, as root). Then:\n${steps.map((step) => `  ${step}`).join('\n')}\n`,
  )
}
