import { commonEnv, envTypes, parseEnv } from '@guard/shared'
import { z } from 'zod'

export const probeEnvSchema = z.object({
  ...commonEnv,
  GUARD_PROBE_LOCATION: z
    .string()
    .regex(/^[a-z0-9-]{2,32}$/, 'must be a location code such as fra, iad or sin')
    .default('local'),
  GUARD_PROBE_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(50),
  GUARD_ALLOW_PRIVATE_TARGETS: envTypes.flag,
})

export type ProbeEnv = z.infer<typeof probeEnvSchema>

export const parseProbeEnv = (env: NodeJS.ProcessEnv = process.env): ProbeEnv => parseEnv('probe', probeEnvSchema, env)
