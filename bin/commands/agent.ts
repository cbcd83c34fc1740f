import { realpathSync } from 'node:fs'
import { parseArgs } from 'node:util'
import {
  AGENT_NODE_FLAGS,
  enrollDevice,
  installSystemdUnit,
  inventoryGarbageCollector,
  loadAgentConfig,
  parseAgentEnv,
  startAgent,
} from '@guard/agent'
import { ConfigError } from '@guard/shared/config-error'
import { createLogger } from '@guard/shared/logger'
import { closeOnSignals } from '@guard/shared/process'

const usage = `Usage:
  guard agent [--config FILE] [--collector URL] [--device ID] [--token TOKEN] [--interval SECONDS]
  guard agent enroll --collector URL --key API_KEY --name NAME [--tag T]... [--config FILE] [--interval SECONDS]
  guard agent install [--user guard-agent] [--config FILE] [--unit /etc/systemd/system/guard-agent.service]`

/** Runs the device agent, or enrols this machine, or installs the agent as a systemd service. */
export async function runAgent(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [sub, ...rest] = args
  if (sub === 'enroll') return enroll(rest)
  if (sub === 'install') return install(rest)
  if (sub === 'help' || sub === '--help') {
    process.stdout.write(`${usage}\n`)
    return
  }
  const { values } = parseArgs({
    args,
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
    options: {
      collector: { type: 'string' },
      key: { type: 'string' },
      name: { type: 'string' },
      tag: { type: 'string', multiple: true },
      config: { type: 'string' },
      interval: { type: 'string' },
    },
  })
  if (!values.collector || !values.key || !values.name)
    throw new ConfigError(`agent enroll: --collector, --key and --name are required\n${usage}`)
  const interval = values.interval ? Number(values.interval) : undefined
  const { deviceId, configPath } = await enrollDevice({
    collectorUrl: values.collector,
    apiKey: values.key,
    name: values.name,
    ...(values.tag ? { tags: values.tag } : {}),
    ...(values.config ? { configPath: values.config } : {}),
    ...(interval ? { intervalSeconds: interval } : {}),
  })
  process.stdout.write(
    `Enrolled device ${deviceId}; its token is in ${configPath} (mode 0600).\nStart the agent: guard agent --config ${configPath}\n`,
  )
}

async function install(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      user: { type: 'string', default: 'guard-agent' },
      config: { type: 'string', default: '/etc/guard/agent.json' },
      unit: { type: 'string', default: '/etc/systemd/system/guard-agent.service' },
    },
  })
  // The agent runs from a bundle in a temporary directory: the CLI node was started with is argv[1].
  const cli = realpathSync(process.argv[1] ?? 'bin/guard.mjs')
  const steps = await installSystemdUnit({
    unitPath: values.unit,
    execStart: [process.execPath, ...AGENT_NODE_FLAGS, cli, 'agent'].join(' '),
    configPath: values.config,
    user: values.user,
  })
  process.stdout.write(
    `Wrote ${values.unit}. The agent runs as ${values.user} and reads ${values.config}` +
      ` (run guard agent enroll --config ${values.config} first, as root). Then:\n${steps.map((step) => `  ${step}`).join('\n')}\n`,
  )
}
