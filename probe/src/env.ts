import { availableParallelism } from 'node:os'
import { commonEnv, envTypes, keyEnv, parseEnv } from '@guard/shared'
import { z } from 'zod'
import { parseCanaryTargets } from './canary.ts'

const probeEnvFields = z.object({
  ...commonEnv,
  GUARD_PROBE_LOCATION: z
    .string()
    .regex(/^[a-z0-9-]{2,32}$/, 'must be a location code such as fra, iad or sin')
    .default('local')
    .describe('location code (`fra`, `iad`, `sin`, …); `--location` overrides it'),
  GUARD_PROBE_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(200)
    .describe(
      'checks running at once, shared evenly between the organizations with monitors on the probe (see [Probe](monitors.md#probe))',
    ),
  /** Worker threads for HTTPS and TLS checks; 0 runs checks on the main thread. Unset: one per core. */
  GUARD_PROBE_CHECK_THREADS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    .default(() => availableParallelism())
    .meta({
      description:
        'worker threads that run HTTPS and TLS checks, started as checks need them; `0` runs every check on the main thread (see [Probe](monitors.md#probe))',
      docDefault: 'one per core (`os.availableParallelism()`)',
    }),
  GUARD_ALLOW_PRIVATE_TARGETS: envTypes.flag.describe(
    '`1` lets checks and toolbox jobs reach private, loopback, link-local and other internal addresses; unset: `0`',
  ),
  GUARD_PROBE_BROWSER: z
    .enum(['chromium'])
    .optional()
    .describe(
      '`chromium` lets this probe run browser checks (see [Monitors](monitors.md#browser-checks)); unset, it runs none and is given none',
    ),
  GUARD_PROBE_BROWSER_PATH: z
    .string()
    .min(1)
    .optional()
    .describe("the browser's executable, e.g. Debian's `/usr/bin/chromium`; required with `GUARD_PROBE_BROWSER`"),
  GUARD_PROBE_BROWSER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(() => availableParallelism())
    .meta({
      description: 'browser checks running at once, each with its own browser and about 200 MB',
      docDefault: 'one per core (`os.availableParallelism()`)',
    }),
  ...keyEnv,
  /** Outbox and monitor cache; default GUARD_DATA_DIR/probe-<location>. */
  GUARD_PROBE_STATE_DIR: z
    .string()
    .min(1)
    .optional()
    .describe(
      "the probe's outbox (`outbox/`) and last known monitors (`monitors.json`, 0600, credentials sealed); unset: `GUARD_DATA_DIR/probe-<location>`",
    ),
  GUARD_PROBE_OUTBOX_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .default(256 * 1024 * 1024)
    .describe('outbox size limit; past it the oldest results are dropped and counted'),
  GUARD_PROBE_OUTBOX_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(86_400)
    .describe('results older than this are dropped (and counted) instead of replayed'),
  GUARD_PROBE_HEARTBEAT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(300)
    .default(5)
    .describe('seconds between heartbeats on `probes.heartbeat.<location>`'),
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
    })
    .describe(
      '`host:port` targets on independent networks; while none answers, failed checks are `probeDegraded`; default: empty (off)',
    ),
  GUARD_PROBE_CANARY_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(300)
    .default(10)
    .describe('seconds between canary rounds (TCP connect, 3 s timeout)'),
  /** /healthz and /metrics; unset: 9464 for `guard probe`, off in `guard start`; 0 turns it off. */
  GUARD_PROBE_METRICS_PORT: envTypes.port
    .optional()
    .describe(
      'port of `/healthz` and Prometheus `/metrics`; `0` turns them off; unset: `9464` (`guard probe`), off (`guard start`)',
    ),
  GUARD_PROBE_METRICS_HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe('address `/healthz` and `/metrics` listen on (`0.0.0.0` for a scraper elsewhere)'),
})

export const probeEnvSchema = probeEnvFields.refine(
  (env) => env.GUARD_PROBE_BROWSER === undefined || env.GUARD_PROBE_BROWSER_PATH !== undefined,
  { path: ['GUARD_PROBE_BROWSER_PATH'], message: 'is required with GUARD_PROBE_BROWSER (e.g. /usr/bin/chromium)' },
)

export type ProbeEnv = z.infer<typeof probeEnvSchema>

export const parseProbeEnv = (env: NodeJS.ProcessEnv = process.env): ProbeEnv => parseEnv('probe', probeEnvSchema, env)
