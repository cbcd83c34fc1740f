import { commonEnv, envTypes, parseEnv, storeEnv } from '@guard/shared'
import { z } from 'zod'

export const collectorEnvSchema = z.object({
  ...commonEnv,
  ...storeEnv,
  GUARD_COLLECTOR_HOST: z.string().min(1).default('127.0.0.1'),
  GUARD_COLLECTOR_PORT: envTypes.port.default(4001),
  GUARD_INGEST_MAX_BATCH: z.coerce.number().int().min(1).max(100_000).default(1000),
  GUARD_INGEST_MAX_WAIT_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  /** Location codes new domains are checked from; `*` means every probe. */
  GUARD_DEFAULT_LOCATIONS: z
    .string()
    .default('*')
    .transform((value) =>
      value
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    ),
})

export type CollectorEnv = z.infer<typeof collectorEnvSchema>

export const parseCollectorEnv = (env: NodeJS.ProcessEnv = process.env): CollectorEnv =>
  parseEnv('collector', collectorEnvSchema, env)
