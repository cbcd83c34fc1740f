import { z } from 'zod'
import { isPostgresUrl } from '../store/postgres-hosts.ts'
import { ConfigError } from './config-error.ts'

export { ConfigError }

/** Variables whose values never appear in logs or error messages. */
const SECRET_NAME = /(PASSWORD|SECRET|TOKEN|KEY|CREDENTIALS)$/

/** Connection strings that may carry a user and password (`smtp://user:pass@host`). */
const CONNECTION_URL = /^(DATABASE_URL|CLICKHOUSE_URL|NATS_URL|GUARD_SMTP_URL)$/

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || CONNECTION_URL.test(name)
}

/**
 * Parses the environment of one process at boot. A bad value fails fast with a message naming
 * each bad variable and why, without echoing secret values.
 */
export function parseEnv<Schema extends z.ZodObject>(
  processName: string,
  schema: Schema,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<Schema> {
  const result = schema.safeParse(env)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.')
    return `  ${name}: ${issue.message}`
  })
  throw new ConfigError(`${processName}: invalid configuration\n${problems.join('\n')}`)
}

/** A copy of a configuration object with secret values replaced, safe to log. */
export function redactConfig(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(config).map(([name, value]) => [
      name,
      value !== undefined && isSecretName(name) ? '[redacted]' : value,
    ]),
  )
}

const port = z.coerce.number().int().min(0).max(65535)

// What nats.js accepts as a server: nats, tls, ws or wss with a host, or a bare host:port.
const NATS_SCHEMES = new Set(['nats:', 'tls:', 'ws:', 'wss:'])

function isNatsServerUrl(server: string): boolean {
  const trimmed = server.trim()
  if (!trimmed) return false
  try {
    const url = new URL(trimmed.includes('://') ? trimmed : `nats://${trimmed}`)
    return NATS_SCHEMES.has(url.protocol) && url.hostname !== ''
  } catch {
    return false
  }
}
const flag = z
  .enum(['0', '1', 'true', 'false'])
  .optional()
  .transform((value) => value === '1' || value === 'true')

/** Variables every Guard process reads. */
export const commonEnv = {
  GUARD_DATA_DIR: z.string().min(1).default('./data').describe('where PGlite, chDB and `credentials.json` live'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`; logs are JSON, pretty on a terminal'),
  NATS_URL: z
    .string()
    .min(1)
    .refine((value) => value.split(',').every(isNatsServerUrl), {
      error: 'must be nats://host:port, or several separated by commas',
    })
    .optional()
    .describe(
      'NATS server(s), e.g. `nats://127.0.0.1:4222`, or the servers of a cluster separated by commas (`nats://a:4222,nats://b:4222`; the client picks one and fails over to the others, reconnecting forever); unset: in-process bus',
    ),
  GUARD_STREAM_REPLICAS: z.coerce
    .number()
    .int()
    .min(1)
    .max(5)
    .default(1)
    .describe(
      "JetStream replicas of Guard's streams, durable consumers and KV buckets (1 on one nats-server, 3 on a cluster of 3 or more); streams and consumers with fewer copies are raised to it at start, never lowered",
    ),
  GUARD_NATS_DOMAIN: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a JetStream domain name (letters, digits, - and _)')
    .optional()
    .describe(
      "JetStream domain of the streams, for a process connected to a leaf node whose JetStream lives on the hub (the hub's `jetstream { domain }`); unset: the JetStream of the servers in `NATS_URL`",
    ),
  NATS_USER: z.string().optional().describe('NATS user name (with `NATS_PASSWORD`)'),
  NATS_PASSWORD: z.string().optional().describe('NATS password (with `NATS_USER`)'),
  NATS_TOKEN: z.string().optional().describe('NATS authentication token'),
  /**
   * Embedded bus (no NATS_URL): `always` fsyncs each group of publishes before they resolve, so a
   * stored result survives a power cut; `none` survives a killed process only (README "Embedded bus").
   */
  GUARD_BUS_FSYNC: z
    .enum(['always', 'none'])
    .default('always')
    .describe(
      '`always`: a publish resolves after fsync (survives a power cut); `none`: once written (survives a killed process)',
    ),
  /** Embedded bus: each stream keeps at most this many bytes and this many hours, settled or not. */
  GUARD_BUS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(1024 * 1024 * 1024)
    .describe(
      'embedded bus (no `NATS_URL`): bytes each stream keeps at most; past it the oldest messages go, acknowledged or not',
    ),
  GUARD_BUS_MAX_AGE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .default(72)
    .describe('embedded bus: hours each stream keeps a message at most, acknowledged or not'),
}

export const storeEnv = {
  DATABASE_URL: z
    .string()
    .refine(isPostgresUrl, 'must be a postgres:// URL')
    .optional()
    .describe(
      "PostgreSQL, `postgres://user:pass@host:5432/db`; several hosts in libpq's form, `postgres://user:pass@h1:5432,h2:5432/db?target_session_attrs=read-write`, fail over to the first that accepts writes; unset: PGlite in `GUARD_DATA_DIR/pglite`",
    ),
  CLICKHOUSE_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .optional()
    .describe('ClickHouse HTTP interface, `http://host:8123`; unset: chDB in `GUARD_DATA_DIR/chdb`'),
  CLICKHOUSE_USER: z.string().optional().describe('ClickHouse user name'),
  CLICKHOUSE_PASSWORD: z.string().optional().describe('ClickHouse password'),
  CLICKHOUSE_DATABASE: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a plain identifier')
    .default('guard')
    .describe('ClickHouse database for time series'),
  GUARD_PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9][0-9]*(kB|MB|GB)$/, 'must be a PostgreSQL size such as `32MB`')
    .default('32MB')
    .describe(
      "embedded PostgreSQL (no `DATABASE_URL`): PGlite's `shared_buffers`, held in the process's memory; `16MB` on hosts short of memory",
    ),
}

/**
 * The keys of the processes that seal secrets at rest: one definition, since identity, the collector
 * and probes must agree on what a valid key is.
 */
export const keyEnv = {
  GUARD_SECRET_KEY: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      "32+ characters; encrypts signing keys (identity) and monitor credentials, integration secrets, webhook secrets and Slack URLs (collector) at rest, each under its own HKDF purpose key; signs cookies and the collector's service token to identity (see [Plans](concepts.md#collector)). Identity replicas and collector replicas must share it. A probe uses it (or its own `secret.key`) only to seal the credentials in its `monitors.json`: a remote probe needs neither the collector's value nor any; default: generated into `GUARD_DATA_DIR/secret.key`",
    ),
  GUARD_PROBE_CREDENTIALS_KEY: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      '32+ characters, the same on the collector and every probe: monitor credentials travel to probes sealed (see [Monitors](monitors.md#monitors)); unset: credentials reach probes in the clear',
    ),
}

export const envTypes = { port, flag }
