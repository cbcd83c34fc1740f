import { availableParallelism } from 'node:os'
import { commonEnv, envTypes, parseEnv } from '@guard/shared'
import { z } from 'zod'
import { parseCanaryTargets } from './canary.ts'

const probeEnvFields = z.object({
  ...commonEnv,
  GUARD_PROBE_LOCATION: z
    .string()
    .regex(/^[a-z0-9-]{2,32}$/, 'must be a location code such as fra, iad or sin')
    .default('local'),
  GUARD_PROBE_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(200),
  /** Worker threads for HTTPS and TLS checks; 0 runs checks on the main thread. Unset: one per core. */
  GUARD_PROBE_CHECK_THREADS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    .default(() => availableParallelism()),
  GUARD_ALLOW_PRIVATE_TARGETS: envTypes.flag,
  /** Browser checks: the browser this probe runs them with; unset, it runs none and is given none. */
  GUARD_PROBE_BROWSER: z.enum(['chromium']).optional(),
  /** The browser's executable, e.g. Debian's /usr/bin/chromium; required with GUARD_PROBE_BROWSER. */
  GUARD_PROBE_BROWSER_PATH: z.string().min(1).optional(),
  /** Browser checks running at once, each with its own browser; unset: one per core. */
  GUARD_PROBE_BROWSER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(() => availableParallelism()),
  /**
   * Seals the monitor credentials the probe keeps on disk (README "Credentials"); unset, the key in
   * GUARD_DATA_DIR/secret.key. Never needed from the collector: any probe may have its own.
   */
  GUARD_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Opens monitor credentials the collector sealed with the same value (README "Credentials"). */
  GUARD_PROBE_CREDENTIALS_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Outbox and monitor cache; default GUARD_DATA_DIR/probe-<location>. */
  GUARD_PROBE_STATE_DIR: z.string().min(1).optional(),
  GUARD_PROBE_OUTBOX_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .default(256 * 1024 * 1024),
  GUARD_PROBE_OUTBOX_MAX_AGE_SECONDS: z.coerce.number().int().min(60).default(86_400),
  GUARD_PROBE_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  /**
   * Connectivity canary (README "Dependencies"): `host:port` targets on independent networks; while
   * none answers a TCP connect, this probe's failed checks are marked `probeDegraded` and page no one.
   * Empty: no canary.
   */
  GUARD_PROBE_CANARY: z
    .string()
    .default('')
    .transform((text, ctx) => {
      try {
        return parseCanaryTargets(text)
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message })
        return z.NEVER
      }
    }),
  GUARD_PROBE_CANARY_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  /** /healthz and /metrics; unset: 9464 for `guard probe`, off in `guard start`; 0 turns it off. */
  GUARD_PROBE_METRICS_PORT: envTypes.port.optional(),
  GUARD_PROBE_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
})

export const probeEnvSchema = probeEnvFields.refine(
  (env) => env.GUARD_PROBE_BROWSER === undefined || env.GUARD_PROBE_BROWSER_PATH !== undefined,
  { path: ['GUARD_PROBE_BROWSER_PATH'], message: 'is required with GUARD_PROBE_BROWSER (e.g. /usr/bin/chromium)' },
)

export type ProbeEnv = z.infer<typeof probeEnvSchema>

export const parseProbeEnv = (env: NodeJS.ProcessEnv = process.env): ProbeEnv => parseEnv('probe', probeEnvSchema, env)
