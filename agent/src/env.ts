import { commonEnv, parseEnv } from '@guard/shared'
import { z } from 'zod'

export const agentEnvSchema = z.object({
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  GUARD_COLLECTOR_URL: z.url({ protocol: /^https?$/ }),
  GUARD_DEVICE_ID: z.string().min(1),
  GUARD_DEVICE_TOKEN: z.string().min(1),
  GUARD_AGENT_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
})

export type AgentEnv = z.infer<typeof agentEnvSchema>

export const parseAgentEnv = (env: NodeJS.ProcessEnv = process.env): AgentEnv => parseEnv('agent', agentEnvSchema, env)
