import { commonEnv, parseEnv } from '@guard/shared'
import { z } from 'zod'

/** The agent's environment; each variable overrides the config file's value of the same setting. */
export const agentEnvSchema = z.object({
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  /** The config file `guard agent enroll` writes (JSON, mode 0600). */
  GUARD_AGENT_CONFIG: z.string().min(1).optional(),
  GUARD_COLLECTOR_URL: z.string().optional(),
  GUARD_DEVICE_ID: z.string().optional(),
  GUARD_DEVICE_TOKEN: z.string().optional(),
  GUARD_AGENT_INTERVAL_SECONDS: z.string().optional(),
  GUARD_AGENT_INVENTORY_SECONDS: z.string().optional(),
  GUARD_AGENT_SPOOL_DIR: z.string().optional(),
  GUARD_AGENT_SPOOL_MAX_MB: z.string().optional(),
  GUARD_AGENT_SPOOL_MAX_AGE_HOURS: z.string().optional(),
})

export type AgentEnv = z.infer<typeof agentEnvSchema>

export const parseAgentEnv = (env: NodeJS.ProcessEnv = process.env): AgentEnv => parseEnv('agent', agentEnvSchema, env)
