import { isIP } from 'node:net'
import { commonEnv, envTypes, keyEnv, parseEnv, storeEnv } from '@guard/shared'
import cron from 'node-cron'
import { z } from 'zod'
import { integrationsEnv } from './integrations/env.ts'

function isAddressOrCidr(value: string): boolean {
  const [address = '', bits, ...rest] = value.split('/')
  const family = isIP(address)
  if (!family || rest.length > 0) return false
  if (bits === undefined) return true
  const n = Number(bits)
  return Number.isInteger(n) && n >= 0 && n <= (family === 4 ? 32 : 128)
}

export const collectorEnvSchema = z.object({
  ...commonEnv,
  ...storeEnv,
  ...integrationsEnv,
  GUARD_COLLECTOR_HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe('address the collector listens on (`0.0.0.0` in containers)'),
  GUARD_COLLECTOR_PORT: envTypes.port.default(4001).describe('port the collector listens on'),
  GUARD_INGEST_MAX_BATCH: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(1000)
    .describe('largest batch of results per ClickHouse insert'),
  GUARD_INGEST_MAX_WAIT_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60_000)
    .default(500)
    .describe('longest wait to fill a batch'),
  /** A batch not acked within this time (a crashed replica's) is delivered again, to any replica. */
  GUARD_INGEST_ACK_WAIT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(600_000)
    .default(30_000)
    .describe('a batch not acknowledged within this time (its replica died) is delivered again, to any replica'),
  /**
   * An ingest that stored nothing for this long while messages wait makes /api/health `degraded`:
   * above the longest retry pause, so one slow store is not reported as a stall.
   */
  GUARD_INGEST_STALL_MS: z.coerce
    .number()
    .int()
    .min(500)
    .max(3_600_000)
    .default(60_000)
    .describe('`/api/health` is `degraded` when an ingest consumer stored nothing for this long while messages wait'),
  /** Days each ClickHouse table keeps its rows (raw results, per-minute and per-hour rollups). */
  GUARD_RETENTION_RAW_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(35)
    .describe('days ClickHouse keeps raw check results (`check_results`)'),
  GUARD_RETENTION_MINUTE_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(35)
    .describe('days it keeps the per-minute rollup (`check_results_1m`)'),
  GUARD_RETENTION_HOUR_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(400)
    .describe('days it keeps the per-hour rollup (`check_results_1h`)'),
  /**
   * How long a rendered read (lists, details, stats) may be served from memory when no write has
   * announced a change (README "Read cache"); 0 turns the cache off.
   */
  /** The event stream's keep-alive, which is also when it checks the caller is still signed in. */
  GUARD_EVENT_STREAM_KEEPALIVE_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(15_000)
    .describe(
      "how often `/api/events/stream` sends a keep-alive comment and re-checks the caller's credential: a signed-out console session, a revoked key or an expired token ends the stream there",
    ),
  GUARD_READ_CACHE_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300_000)
    .default(10_000)
    .describe(
      "longest a cached read (and a verified API key, so also how long a key outlives its creator's removal) is kept when no write announces a change; `0` turns the cache off (see [Read cache](performance.md#read-cache))",
    ),
  /** How long one organization's GET /metrics/monitors text serves its scrapes; 0 reads the state every time. */
  GUARD_MONITOR_METRICS_CACHE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300_000)
    .default(5000)
    .describe(
      "how long one organization's `GET /metrics/monitors` text serves its scrapes (`0`: every scrape reads the state)",
    ),
  /**
   * The OTLP/HTTP metrics export of what Guard measures starts when one of these is set (README
   * "Metrics export"); the exporter reads the other standard OTEL_EXPORTER_OTLP_* variables itself.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url()
    .optional()
    .describe(
      'where the OTLP/HTTP metrics export pushes the monitor series (`…/v1/metrics` is appended; see [Metrics export](operations.md#metrics-export)); the other `OTEL_EXPORTER_OTLP_*` variables (headers, timeout, compression, certificates) apply; unset (and `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` unset): no export',
    ),
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: z
    .url()
    .optional()
    .describe('the full URL the metrics export pushes to, instead of `OTEL_EXPORTER_OTLP_ENDPOINT`'),
  OTEL_METRICS_EXPORTER: z.enum(['otlp', 'none']).default('otlp').describe('`none` turns the metrics export off'),
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce
    .number()
    .int()
    .min(1000)
    .max(3_600_000)
    .default(60_000)
    .describe('milliseconds between two metrics exports'),
  OTEL_SERVICE_NAME: z
    .string()
    .min(1)
    .default('guard-collector')
    .describe("the exported resource's `service.name` (with `OTEL_RESOURCE_ATTRIBUTES`)"),
  GUARD_READ_CACHE_MAX_ENTRIES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(10_000)
    .describe('cached reads kept per replica'),
  /**
   * How long after an ingested batch its monitors' 24-hour and daily figures are recomputed from the
   * rollups into PostgreSQL (README "Read path"); batches meanwhile share one recomputation.
   */
  GUARD_SUMMARY_REFRESH_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(5000)
    .describe(
      "how long after an ingested batch its monitors' 24-hour and daily summaries are recomputed (see [Read path](performance.md#read-path))",
    ),
  /** Every monitor's figures are recomputed this often, so the 24-hour window slides without results too. */
  GUARD_SUMMARY_SWEEP_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(60)
    .describe(
      'how often the summaries of monitors no refresh rewrote meanwhile are recomputed, so the 24-hour window slides without results too',
    ),
  /** Requests per principal and hour, per class (see README "Rate limits"). */
  GUARD_RATE_LIMIT_READ: z.coerce
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe(
      'requests per hour and principal (API key or user) that read (GET); 429 beyond (see [API decisions](api-and-mcp.md#api-decisions))',
    ),
  GUARD_RATE_LIMIT_WRITE: z.coerce
    .number()
    .int()
    .min(1)
    .default(100)
    .describe('requests per hour and principal that write (POST, PUT, DELETE)'),
  GUARD_RATE_LIMIT_BULK: z.coerce.number().int().min(1).default(10).describe('bulk operations per hour and principal'),
  /**
   * Requests per organization and hour, per class, shared by all of its API keys and users, so
   * minting more keys does not multiply the limit. Unset: five times the per-principal limit.
   */
  GUARD_RATE_LIMIT_ORG_READ: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      'reads per hour and organization, shared by all of its API keys and users, so minting more keys does not multiply the limit; unset: five times `GUARD_RATE_LIMIT_READ`',
    ),
  GUARD_RATE_LIMIT_ORG_WRITE: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      'writes per hour and organization, shared by all of its API keys and users; unset: five times `GUARD_RATE_LIMIT_WRITE`',
    ),
  GUARD_RATE_LIMIT_ORG_BULK: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      'bulk operations per hour and organization, shared by all of its API keys and users; unset: five times `GUARD_RATE_LIMIT_BULK`',
    ),
  /** A device silent for three of its intervals, and at least this many seconds, is offline. */
  GUARD_DEVICE_OFFLINE_MIN_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(86_400)
    .default(90)
    .describe('a device is offline after 3 of its intervals without a heartbeat, and never sooner than this'),
  /** node-cron schedule (with seconds) of the offline detection job; one replica runs it at a time. */
  GUARD_DEVICE_OFFLINE_CRON: z
    .string()
    .min(1)
    .default('*/15 * * * * *')
    .describe('node-cron schedule (with seconds) of the offline job; one replica runs each tick'),
  /** node-cron schedule (with seconds) of the heartbeat deadline job (missed and too long runs); one replica runs it. */
  GUARD_HEARTBEAT_DEADLINE_CRON: z
    .string()
    .min(1)
    .default('*/2 * * * * *')
    .describe(
      'node-cron schedule (with seconds) of the heartbeat deadline job (missed and too long runs); one replica runs each tick',
    ),
  /** Pings one heartbeat's token may send per minute before it gets 429 (per replica). */
  GUARD_PING_MAX_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(60)
    .describe("pings one heartbeat's token may send per minute (per replica) before 429 with `Retry-After`"),
  /** Largest `POST /agent` body in bytes, after gzip decompression. */
  GUARD_AGENT_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(2 * 1024 * 1024)
    .describe('largest `POST /agent` body, measured after gzip decompression (413 above)'),
  /** Heartbeats one device may send per minute (spool replays included) before it gets 429. */
  GUARD_AGENT_MAX_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(120)
    .describe('heartbeats one device may send per minute (spool replays included) before 429 with `Retry-After`'),
  /** Requests per client IP and hour without valid credentials (health, OpenAPI, 401s, unknown paths). */
  GUARD_RATE_LIMIT_PUBLIC: z.coerce
    .number()
    .int()
    .min(1)
    .default(1000)
    .describe(
      'requests per hour and client IP without valid credentials (health, `/openapi.json`, 401s, unknown paths)',
    ),
  /**
   * Comma-separated proxy addresses or CIDRs whose X-Forwarded-For and X-Forwarded-Proto are believed
   * (the public rate limit, status pages' IP allow-lists, Secure cookies behind a TLS proxy).
   */
  GUARD_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().refine(isAddressOrCidr, 'must list IP addresses or CIDR ranges, comma-separated')))
    .describe(
      "comma-separated proxy addresses or CIDRs whose `X-Forwarded-For` (and, at the collector, `X-Forwarded-Proto`) is believed: the public rate limits, status pages' IP allow-lists, `Secure` page cookies behind a TLS proxy",
    ),
  /** Password attempts one client IP may make per private status page and minute before it gets 429. */
  GUARD_STATUS_PAGE_PASSWORD_ATTEMPTS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(5)
    .describe(
      'password attempts one client IP may make per private status page and minute (per replica) before it gets 429',
    ),
  /** Seconds a public status page is served from memory before it is read again (0 = always read). */
  GUARD_STATUS_PAGE_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(300)
    .default(10)
    .describe(
      'longest a public status page is kept in memory when no write or ingest of its organization changes it first (`0`: every request reads)',
    ),
  /** `1` lets fetch-title and icon reach private and loopback addresses, as the probe's flag does. */
  GUARD_ALLOW_PRIVATE_TARGETS: envTypes.flag.describe(
    '`1` lets `fetch-title`, `icon`, notification receivers (webhook, Slack; then also over http) and integration calls (a selfhost-b instance on a private network) use private and loopback addresses; unset: `0`',
  ),
  GUARD_ARTIFACT_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(14)
    .describe(
      "days a browser check run's screenshot and trace are kept under `GUARD_DATA_DIR/artifacts` (see [Monitors](monitors.md#browser-checks)); older ones are pruned hourly",
    ),
  /** Seconds the manual check of a service may wait for a probe's reply. */
  GUARD_MANUAL_CHECK_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(300)
    .default(35)
    .describe(
      "longest wait for a probe's answer to `POST /api/services/{id}/check` (at least the check's timeout + 5)",
    ),
  /**
   * Identity's issuer URL: Bearer values that are not API keys are verified as user access
   * tokens against its JWKS. Unset: only API keys are accepted (`guard start` sets it itself).
   */
  GUARD_IDENTITY_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional()
    .describe(
      "identity's public issuer URL: Bearer values that are not API keys are verified as user access tokens against its JWKS, and organizations' plans are enforced (then the collector needs identity's `GUARD_SECRET_KEY` too); `guard start` wires it itself; unset: only API keys are accepted",
    ),
  /**
   * Where the collector itself calls identity when that is not GUARD_IDENTITY_URL, the address
   * browsers and tokens use (in containers: `http://identity:4000`): plans, memberships, the
   * operator's whoami, the console's client registration, discovery and token requests.
   */
  GUARD_IDENTITY_INTERNAL_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional()
    .describe(
      "where the collector itself calls identity when browsers and tokens use another address (in containers, `http://identity:4000`): plans, memberships, the operator's whoami, `/api/health`'s identity check, the console's client registration, discovery and token requests (the console still sends browsers to `GUARD_IDENTITY_URL`); unset: `GUARD_IDENTITY_URL`",
    ),
  /** Where to fetch identity's keys when not at `<GUARD_IDENTITY_URL>/.well-known/jwks.json`. */
  GUARD_IDENTITY_JWKS_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .optional()
    .describe("where the collector fetches identity's signing keys; unset: `GUARD_IDENTITY_URL/.well-known/jwks.json`"),
  ...keyEnv,
  /**
   * Location codes a monitor may name besides those whose probes have sent heartbeats, e.g. a
   * region whose probe is not deployed yet (README "Locations").
   */
  GUARD_LOCATIONS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    )
    .describe(
      'comma-separated location codes monitors may name before a probe there has sent a heartbeat (see [Monitors](monitors.md#monitors))',
    ),
  /** A probe without a heartbeat for this long is offline. */
  GUARD_PROBE_OFFLINE_AFTER_SECONDS: z.coerce
    .number()
    .min(1)
    .max(3600)
    .default(20)
    .describe('a probe without a heartbeat for this long is offline in `GET /api/locations`'),
  /** Seconds an organization's plan read from identity is trusted: the longest a plan change takes to apply. */
  GUARD_PLAN_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(30)
    .describe(
      "how long the collector trusts an organization's plan read from identity: the longest a plan change takes to be enforced",
    ),
  /** Location codes new monitors are checked from when they name none; `*` means every probe. */
  GUARD_DEFAULT_LOCATIONS: z
    .string()
    .default('*')
    .transform((value) =>
      value
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    )
    .describe('comma-separated location codes a new domain or service runs at when it names none; `*` = every probe'),
  /** Base URL of the web console, for links in notifications; default: the collector's own URL. */
  GUARD_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional()
    .describe(
      "base URL of the web console, for the links in notifications (`…/incidents/{id}`), the console's sign-in callback and status page feeds (else the request's host); identity sends a browser that opens its root there (default for identity: `GUARD_COLLECTOR_PUBLIC_URL`, under `guard start` the collector beside it); unset: `GUARD_COLLECTOR_PUBLIC_URL`'s default: the collector's listening address, a wildcard host read as `127.0.0.1`",
    ),
  /** Longest a web console sign-in lasts (its tokens are refreshed meanwhile); then the user signs in again. */
  GUARD_CONSOLE_SESSION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(720)
    .default(12)
    .describe('longest a web console sign-in lasts (its tokens are refreshed meanwhile); then the user signs in again'),
  /**
   * The collector's own public base URL, as assistants reach it: the MCP resources are
   * `<url>/mcp` and `<url>/api/mcp` (tokens for either audience are accepted on the MCP endpoints,
   * and the protected-resource metadata names them). Default: http://<host>:<port>.
   */
  GUARD_COLLECTOR_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional()
    .describe(
      "the collector's public base URL as assistants reach it: the MCP resources are `<url>/mcp` and `<url>/api/mcp` (token audiences, protected-resource metadata, `WWW-Authenticate`); identity issues tokens for those two resources when `GUARD_MCP_RESOURCES` is unset; unset: `http://<GUARD_COLLECTOR_HOST>:<GUARD_COLLECTOR_PORT>` (a wildcard host read as `127.0.0.1`)",
    ),
  /** Comma-separated browser origins besides loopback and the public URL that may call the MCP endpoint. */
  GUARD_MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .describe(
      'comma-separated browser origins, besides loopback and the public URL, allowed to call the MCP endpoint (DNS rebinding defence: other `Origin`s get 403)',
    ),
  /** SMTP server for e-mail notifications (smtp:// or smtps://, credentials in the URL); unset: no e-mail. */
  GUARD_SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })
    .optional()
    .describe(
      'SMTP server for e-mail notifications, `smtp://user:pass@host:587` or `smtps://…`; unset: no e-mail channel',
    ),
  GUARD_SMTP_FROM: z
    .string()
    .min(3)
    .default('Guard <guard@localhost>')
    .describe('sender of notification and report e-mails'),
  /** A monitor down again within this many seconds of its incident's automatic resolution reopens it. */
  GUARD_INCIDENT_FLAP_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(86_400)
    .default(600)
    .describe("a monitor down again within this time of its incident's automatic resolution reopens that incident"),
  /** Delivery retries: first delay, cap of the exponential backoff, and how long before giving up. */
  /**
   * Messages about a flapping incident (reopened inside the flapping window, and what follows) wait
   * this long, and a newer one for the same incident and channel replaces a waiting one: a bouncing
   * monitor pages once per period with its latest state, never with a stale one.
   */
  GUARD_NOTIFY_FLAP_DELAY_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(3600)
    .default(60)
    .describe('messages about a flapping incident wait this long; a newer one replaces a waiting one'),
  /** How often a replica looks for escalation steps, reminders and quiet-hours digests that are due. */
  GUARD_ESCALATION_POLL_MS: z.coerce
    .number()
    .int()
    .min(50)
    .max(300_000)
    .default(5000)
    .describe('how often a replica sends due escalation steps, reminders and quiet-hours digests'),
  GUARD_DELIVERY_BASE_DELAY_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(3_600_000)
    .default(2000)
    .describe('first retry delay of a failed delivery'),
  GUARD_DELIVERY_MAX_DELAY_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(86_400_000)
    .default(600_000)
    .describe('cap of the exponential backoff (equal jitter) between delivery retries'),
  GUARD_DELIVERY_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(86_400)
    .describe('a delivery still failing after this long is marked `failed`'),
  GUARD_DELIVERY_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(10_000)
    .describe('timeout of one webhook or Slack request'),
  /** A delivery claimed by a replica that died is claimed again after this lease. */
  GUARD_DELIVERY_LEASE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3600)
    .default(60)
    .describe('a delivery claimed by a replica that died is claimed again after this'),
  GUARD_DELIVERY_POLL_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60_000)
    .default(1000)
    .describe('how often the delivery worker looks for due retries (new deliveries wake it at once)'),
  /** Status page subscriber mails sent per second to one recipient domain; the rest wait their turn. */
  GUARD_SUBSCRIBER_MAILS_PER_DOMAIN_SECOND: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(20)
    .describe('status page subscriber mails sent per second to one recipient domain (the rest are queued later)'),
  /** Subscribe requests per client IP and minute on public status pages, on top of the public class. */
  GUARD_SUBSCRIBE_MAX_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(5)
    .describe('subscribe requests per client IP and minute on public status pages (429 beyond)'),
  /**
   * One RDAP server for every TLD, instead of the IANA bootstrap (README "Domain registration
   * expiry"): for air-gapped installs and tests. Operator configuration, so the target guard does
   * not apply; credentials in it are sent as Basic auth and never shown.
   */
  GUARD_RDAP_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .transform((url) => (url.endsWith('/') ? url : `${url}/`))
    .optional()
    .describe(
      'one RDAP server for every TLD (air-gapped installs, tests); credentials in it are sent as Basic auth, never shown (see [Domain registration expiry](monitors.md#domain-registration-expiry)); unset: the IANA bootstrap',
    ),
  /** Where the RDAP bootstrap (TLD → RDAP servers) is refreshed from, daily, while GUARD_RDAP_URL is unset. */
  GUARD_RDAP_BOOTSTRAP_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })
    .default('https://data.iana.org/rdap/dns.json')
    .describe('where the TLD → RDAP server list is refreshed from, once a day, while `GUARD_RDAP_URL` is unset'),
  GUARD_RDAP_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(10_000)
    .describe('longest wait for one RDAP answer (and for the bootstrap)'),
  /**
   * node-cron schedule (with seconds) of the registration job; one replica runs it. It looks up only
   * domains not asked for a day (an hour after a failure), so hourly ticks cost one query when
   * nothing is due and a new domain waits an hour, not a day.
   */
  GUARD_DOMAIN_REGISTRATION_CRON: z
    .string()
    .default('0 23 * * * *')
    .refine((expression) => cron.validate(expression), 'must be a cron expression (node-cron syntax)')
    .describe(
      'node-cron schedule (with seconds) of the registration job; one replica runs each tick and looks up only domains not asked for a day',
    ),
  /** When the weekly report e-mails go out (node-cron syntax, UTC); one replica sends them. */
  GUARD_WEEKLY_REPORT_CRON: z
    .string()
    .default('0 8 * * 1')
    .refine((expression) => cron.validate(expression), 'must be a cron expression (node-cron syntax)')
    .describe('when weekly report e-mails go out (node-cron syntax, UTC); one replica sends them'),
  /**
   * `guard start` only (embedded stores): when backups are written on their own (node-cron syntax,
   * with seconds), each into a new `guard-backup-<time>` directory under GUARD_BACKUP_DIR, keeping
   * the newest GUARD_BACKUP_KEEP. Unset: no scheduled backups.
   */
  GUARD_BACKUP_CRON: z
    .string()
    .refine((expression) => cron.validate(expression), 'must be a cron expression (node-cron syntax)')
    .optional()
    .describe(
      '`guard start` only: when scheduled backups run (node-cron syntax, with seconds); each tick writes `GUARD_BACKUP_DIR/guard-backup-<time>` and removes all but the newest `GUARD_BACKUP_KEEP`; needs `GUARD_BACKUP_DIR` (see [Backup and restore](operations.md#backup-and-restore)); unset: no scheduled backups',
    ),
  GUARD_BACKUP_DIR: z
    .string()
    .min(1)
    .optional()
    .describe('`guard start` only: the directory scheduled backups are written under'),
  GUARD_BACKUP_KEEP: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(7)
    .describe('`guard start` only: how many scheduled backups are kept (the newest)'),
})

export type CollectorEnv = z.infer<typeof collectorEnvSchema>

/** GUARD_COLLECTOR_PUBLIC_URL, or the address the collector listens on (a wildcard host read as loopback). */
export function collectorPublicUrl(
  env: Pick<CollectorEnv, 'GUARD_COLLECTOR_PUBLIC_URL' | 'GUARD_COLLECTOR_HOST' | 'GUARD_COLLECTOR_PORT'>,
): string {
  if (env.GUARD_COLLECTOR_PUBLIC_URL) return env.GUARD_COLLECTOR_PUBLIC_URL
  const host = ['0.0.0.0', '::', ''].includes(env.GUARD_COLLECTOR_HOST) ? '127.0.0.1' : env.GUARD_COLLECTOR_HOST
  return `http://${host.includes(':') ? `[${host}]` : host}:${env.GUARD_COLLECTOR_PORT}`
}

/** Where the collector sends its own requests to identity; undefined without identity. */
export const identityCallUrl = (
  env: Pick<CollectorEnv, 'GUARD_IDENTITY_URL' | 'GUARD_IDENTITY_INTERNAL_URL'>,
): string | undefined =>
  env.GUARD_IDENTITY_URL ? (env.GUARD_IDENTITY_INTERNAL_URL ?? env.GUARD_IDENTITY_URL) : undefined

/**
 * The web console's base URL: GUARD_PUBLIC_URL, else the collector's public URL, whose root serves
 * the console; never the wildcard address a container listens on, which no browser can open.
 */
export const consoleBaseUrl = (
  env: Pick<
    CollectorEnv,
    'GUARD_PUBLIC_URL' | 'GUARD_COLLECTOR_PUBLIC_URL' | 'GUARD_COLLECTOR_HOST' | 'GUARD_COLLECTOR_PORT'
  >,
): string => env.GUARD_PUBLIC_URL ?? collectorPublicUrl(env)

export const parseCollectorEnv = (env: NodeJS.ProcessEnv = process.env): CollectorEnv =>
  parseEnv('collector', collectorEnvSchema, env)
