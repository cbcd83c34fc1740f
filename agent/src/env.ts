import { ConfigError } from '@guard/shared/config-error'

// Checked by hand, not with zod: the agent is bundled alone, and zod would be a large part of its
// memory for a dozen settings (README "Devices and the agent", footprint).

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** The agent's environment; each variable overrides the config file's value of the same setting. */
export interface AgentEnv {
  LOG_LEVEL: (typeof LEVELS)[number]
  /** The config file `guard agent enroll` writes (JSON, mode 0600). */
  GUARD_AGENT_CONFIG?: string | undefined
  GUARD_COLLECTOR_URL?: string | undefined
  GUARD_DEVICE_ID?: string | undefined
  GUARD_DEVICE_TOKEN?: string | undefined
  GUARD_AGENT_INTERVAL_SECONDS?: string | undefined
  GUARD_AGENT_INVENTORY_SECONDS?: string | undefined
  GUARD_AGENT_SPOOL_DIR?: string | undefined
  GUARD_AGENT_SPOOL_MAX_MB?: string | undefined
  GUARD_AGENT_SPOOL_MAX_AGE_HOURS?: string | undefined
}

/** Fails fast naming each bad variable (values are never echoed: one of them is the token). */
export function parseAgentEnv(env: NodeJS.ProcessEnv = process.env): AgentEnv {
  const level = env.LOG_LEVEL ?? 'info'
  if (!(LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`agent: invalid configuration\n  LOG_LEVEL: one of ${LEVELS.join(', ')}`)
  }
  if (env.GUARD_AGENT_CONFIG === '') {
    throw new ConfigError('agent: invalid configuration\n  GUARD_AGENT_CONFIG: empty; unset it or name a file')
  }
  return {
    LOG_LEVEL: level as AgentEnv['LOG_LEVEL'],
    GUARD_AGENT_CONFIG: env.GUARD_AGENT_CONFIG,
    GUARD_COLLECTOR_URL: env.GUARD_COLLECTOR_URL,
    GUARD_DEVICE_ID: env.GUARD_DEVICE_ID,
    GUARD_DEVICE_TOKEN: env.GUARD_DEVICE_TOKEN,
    GUARD_AGENT_INTERVAL_SECONDS: env.GUARD_AGENT_INTERVAL_SECONDS,
    GUARD_AGENT_INVENTORY_SECONDS: env.GUARD_AGENT_INVENTORY_SECONDS,
    GUARD_AGENT_SPOOL_DIR: env.GUARD_AGENT_SPOOL_DIR,
    GUARD_AGENT_SPOOL_MAX_MB: env.GUARD_AGENT_SPOOL_MAX_MB,
    GUARD_AGENT_SPOOL_MAX_AGE_HOURS: env.GUARD_AGENT_SPOOL_MAX_AGE_HOURS,
  }
}
