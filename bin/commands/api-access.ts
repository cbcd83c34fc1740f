import { commonEnv, parseEnv, readCredentials } from '@guard/shared'
import { z } from 'zod'
import { DEFAULT_COLLECTOR_URL, UsageError } from '../cli-kit.ts'

const apiAccessEnv = z.object({
  GUARD_DATA_DIR: commonEnv.GUARD_DATA_DIR,
  /** Default: the collector `guard start` recorded in credentials.json, else the local default. */
  GUARD_COLLECTOR_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Default: the API key `guard start` wrote to GUARD_DATA_DIR/credentials.json. */
  GUARD_API_KEY: z.string().min(1).optional(),
})

/** Where the monitoring API is and the key to call it with, from the environment or `guard start`'s credentials. */
export async function collectorApiAccess(env: NodeJS.ProcessEnv, scope: string) {
  const config = parseEnv(`guard ${scope}`, apiAccessEnv, env)
  const saved = await readCredentials(config.GUARD_DATA_DIR)
  const apiKey = config.GUARD_API_KEY ?? saved.apiKey
  if (!apiKey) throw new UsageError('set GUARD_API_KEY (no credentials.json with an API key found)', scope)
  return { base: config.GUARD_COLLECTOR_URL ?? saved.collectorUrl ?? DEFAULT_COLLECTOR_URL, apiKey }
}
