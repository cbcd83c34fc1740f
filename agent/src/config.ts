import { existsSync, readFileSync } from 'node:fs'
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { ConfigError } from '@guard/shared/config-error'
import type { AgentEnv } from './env.ts'

/** Settings of one agent, from the config file, then the environment, then flags (each overriding). */
/** Settings of one agent, from the config file, then the environment, then flags (each overriding). */
export interface AgentConfig {
  collectorUrl: string
  deviceId: string
  token: string
  intervalSeconds: number
  /** System info, processes, applications and connections are sent this often. */
  inventoryIntervalSeconds: number
  spoolDir: string
  spoolMaxMb: number
  spoolMaxAgeHours: number
}

type Check = (value: unknown) => { value: unknown } | { problem: string }

const text =
  (max = 4096): Check =>
  (value) =>
    typeof value === 'string' && value.length > 0 && value.length <= max
      ? { value }
      : { problem: `required, a text of 1 to ${max} characters` }
const number =
  (min: number, max: number, fallback: number, integer = true): Check =>
  (value) => {
    if (value === undefined) return { value: fallback }
    const parsed = typeof value === 'number' ? value : Number(value)
    return Number.isFinite(parsed) && parsed >= min && parsed <= max && (!integer || Number.isInteger(parsed))
      ? { value: parsed }
      : { problem: `a${integer ? 'n integer' : ' number'} from ${min} to ${max}` }
  }
const httpUrl: Check = (value) => {
  try {
    const url = new URL(String(value))
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      return { value: String(value).replace(/\/+$/, '') }
    }
  } catch {
    // Reported below.
  }
  return { problem: 'must be an http(s):// URL' }
}

const CHECKS: Record<keyof AgentConfig, Check> = {
  collectorUrl: httpUrl,
  deviceId: text(64),
  token: text(),
  intervalSeconds: number(1, 3600, 30),
  inventoryIntervalSeconds: number(10, 86_400, 300),
  spoolDir: text(),
  spoolMaxMb: number(1, 10_000, 50, false),
  spoolMaxAgeHours: number(1, 24 * 35, 24, false),
}

function validateConfig(merged: Record<string, unknown>): { config?: AgentConfig; problems: string[] } {
  const config: Record<string, unknown> = {}
  const problems: string[] = []
  for (const [key, check] of Object.entries(CHECKS)) {
    const result = check(merged[key])
    if ('problem' in result) problems.push(`  ${key}: ${result.problem}`)
    else config[key] = result.value
  }
  return problems.length > 0 ? { problems } : { config: config as unknown as AgentConfig, problems }
}

const isRoot = () => process.getuid?.() === 0

/** Where the agent looks when neither a flag nor the environment names a place. */
export interface AgentPaths {
  configPath: string
  spoolDir: string
}

/** The machine's own places: system paths as root (systemd's StateDirectory when set), the user's otherwise. */
export function defaultAgentPaths(): AgentPaths {
  return isRoot()
    ? { configPath: '/etc/guard/agent.json', spoolDir: process.env.STATE_DIRECTORY ?? '/var/lib/guard-agent' }
    : {
        configPath: join(homedir(), '.config', 'guard', 'agent.json'),
        spoolDir: process.env.STATE_DIRECTORY ?? join(homedir(), '.local', 'state', 'guard-agent'),
      }
}

export const defaultConfigPath = () => defaultAgentPaths().configPath

export interface AgentFlags {
  config?: string | undefined
  collector?: string | undefined
  device?: string | undefined
  token?: string | undefined
  interval?: string | undefined
}

const defined = (entries: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined && value !== ''))

/**
 * Reads the config file (when there is one) and applies environment and flags over it. `defaults`
 * are the places used when nothing names one: the machine's own, unless a test gives its own.
 */
export function loadAgentConfig(
  env: AgentEnv,
  flags: AgentFlags = {},
  defaults: AgentPaths = defaultAgentPaths(),
): AgentConfig {
  const path = flags.config ?? env.GUARD_AGENT_CONFIG ?? defaults.configPath
  let file: Record<string, unknown> = {}
  if (existsSync(path)) {
    try {
      file = JSON.parse(readFileSync(path, 'utf8'))
    } catch (error) {
      throw new ConfigError(`agent: cannot read ${path}: ${(error as Error).message}`)
    }
  } else if (flags.config ?? env.GUARD_AGENT_CONFIG) {
    throw new ConfigError(`agent: config file ${path} does not exist (run guard agent enroll)`)
  }
  const merged = {
    spoolDir: defaults.spoolDir,
    ...defined(file),
    ...defined({
      collectorUrl: env.GUARD_COLLECTOR_URL,
      deviceId: env.GUARD_DEVICE_ID,
      token: env.GUARD_DEVICE_TOKEN,
      intervalSeconds: env.GUARD_AGENT_INTERVAL_SECONDS,
      inventoryIntervalSeconds: env.GUARD_AGENT_INVENTORY_SECONDS,
      spoolDir: env.GUARD_AGENT_SPOOL_DIR,
      spoolMaxMb: env.GUARD_AGENT_SPOOL_MAX_MB,
      spoolMaxAgeHours: env.GUARD_AGENT_SPOOL_MAX_AGE_HOURS,
    }),
    ...defined({
      collectorUrl: flags.collector,
      deviceId: flags.device,
      token: flags.token,
      intervalSeconds: flags.interval,
    }),
  }
  const { config, problems } = validateConfig(merged)
  if (!config) {
    throw new ConfigError(`agent: invalid configuration (file ${path}, environment, flags)\n${problems.join('\n')}`)
  }
  return config
}

/** Writes the config file readable by its owner only: it holds the device token. */
export async function writeAgentConfig(path: string, config: Partial<AgentConfig>): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = `${path}.${process.pid}.tmp`
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
  await chmod(temporary, 0o600)
  await rename(temporary, path)
}
