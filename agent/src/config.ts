import { existsSync, readFileSync } from 'node:fs'
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { ConfigError } from '@guard/shared'
import { z } from 'zod'
import type { AgentEnv } from './env.ts'

/** Settings of one agent, from the config file, then the environment, then flags (each overriding). */
export const agentConfigSchema = z.object({
  collectorUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }),
  deviceId: z.string().min(1).max(64),
  token: z.string().min(1),
  intervalSeconds: z.coerce.number().int().min(1).max(3600).default(30),
  /** System info, processes, applications and connections are sent this often. */
  inventoryIntervalSeconds: z.coerce.number().int().min(10).max(86_400).default(300),
  spoolDir: z.string().min(1),
  spoolMaxMb: z.coerce.number().min(1).max(10_000).default(50),
  spoolMaxAgeHours: z.coerce
    .number()
    .min(1)
    .max(24 * 35)
    .default(24),
})
export type AgentConfig = z.infer<typeof agentConfigSchema>

const isRoot = () => process.getuid?.() === 0

export const defaultConfigPath = () =>
  isRoot() ? '/etc/guard/agent.json' : join(homedir(), '.config', 'guard', 'agent.json')
const defaultSpoolDir = () =>
  process.env.STATE_DIRECTORY ?? (isRoot() ? '/var/lib/guard-agent' : join(homedir(), '.local', 'state', 'guard-agent'))

export interface AgentFlags {
  config?: string | undefined
  collector?: string | undefined
  device?: string | undefined
  token?: string | undefined
  interval?: string | undefined
}

const defined = (entries: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined && value !== ''))

/** Reads the config file (when there is one) and applies environment and flags over it. */
export function loadAgentConfig(env: AgentEnv, flags: AgentFlags = {}): AgentConfig {
  const path = flags.config ?? env.GUARD_AGENT_CONFIG ?? defaultConfigPath()
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
    spoolDir: defaultSpoolDir(),
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
  const result = agentConfigSchema.safeParse(merged)
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
    throw new ConfigError(`agent: invalid configuration (file ${path}, environment, flags)\n${problems.join('\n')}`)
  }
  return result.data
}

/** Writes the config file readable by its owner only: it holds the device token. */
export async function writeAgentConfig(path: string, config: Partial<AgentConfig>): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = `${path}.${process.pid}.tmp`
  await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
  await chmod(temporary, 0o600)
  await rename(temporary, path)
}
