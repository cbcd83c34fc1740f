import { z } from 'zod'
import { dependencyDetailFields } from '../dependencies/schemas.ts'
import { DEFAULT_RULES } from '../monitor-state/transition.ts'
import { defaultTimeout, TIMEOUT_BELOW_INTERVAL } from '../monitor-timing.ts'
import { refineHttpOptions } from '../monitors/http-options.ts'
import {
  authType,
  checkInterval,
  checkPhases,
  checkTimeout,
  clearable,
  credentials,
  failureThreshold,
  type HttpOptions,
  httpOptions,
  lastErrorView,
  locations,
  monitorName,
  optionalShape,
  quorumPercent,
  responseTimeThreshold,
  tags,
} from '../monitors/schemas.ts'
import { registrationView } from './registration/schemas.ts'

export const domainStatus = z.enum(['up', 'down', 'unknown'])
/** Status values of the alternative list shape (README "API decisions"). */
export const lifecycleStatus = z.enum(['active', 'inactive', 'pending'])
export const timeRange = z.enum(['1h', '24h', '7d', '30d'])
export type TimeRange = z.infer<typeof timeRange>
export const statsPeriod = z.enum(['1h', '24h', '7d', '30d', '90d'])
export type StatsPeriod = z.infer<typeof statsPeriod>

export const periodSeconds: Record<StatsPeriod, number> = {
  '1h': 3600,
  '24h': 86_400,
  '7d': 7 * 86_400,
  '30d': 30 * 86_400,
  '90d': 90 * 86_400,
}
export const rangeSeconds: Record<TimeRange, number> = periodSeconds

const url = z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }).max(2048)

const domainExample = {
  url: 'https://api.example.org/health',
  name: 'Example API',
  checkInterval: 60,
  timeout: 10,
  isApi: true,
  authType: 'bearer',
  credentials: { token: 'secret-token' },
  method: 'GET',
  headers: { 'X-Probe': 'guard' },
  expectedStatus: [200, '300-399'],
  keyword: 'maintenance',
  keywordAbsent: true,
  jsonPath: { path: '$.status', equals: 'ok' },
  degradedAboveMs: 800,
  downAboveMs: 5000,
  conditions: ['[BODY].data.id == 1', 'len([BODY].items) > 0'],
  locations: ['fra', 'iad'],
}

/** The write-only credentials' rules and the contract's option rules, as field-named issues. */
const refineDomain = (
  input: Partial<HttpOptions> & { authType?: 'none' | 'basic' | 'bearer' | null | undefined },
  ctx: z.core.$RefinementCtx,
) => refineHttpOptions({ ...input, authType: input.authType ?? undefined }, ctx)

export const createDomainInput = z
  .object({
    url,
    name: monitorName.optional(),
    /** Seconds between checks. */
    checkInterval: checkInterval.default(60),
    /** Seconds a check may take; below the interval so checks never overlap. */
    timeout: checkTimeout.optional(),
    enabled: z.boolean().default(true),
    /** An API endpoint: the probe asks for and expects JSON (README "Domains"). */
    isApi: z.boolean().default(false),
    authType: authType.default('none'),
    credentials: credentials.optional(),
    tags: tags.default([]),
    failureThreshold: failureThreshold.default(DEFAULT_RULES.failureThreshold),
    quorumPercent: quorumPercent.default(DEFAULT_RULES.quorumPercent),
    locations: locations.optional(),
    /** An answer slower than this is down (`slow`); `degradedAboveMs` is the HTTP option below. */
    downAboveMs: responseTimeThreshold.optional(),
    ...httpOptions.shape,
  })
  .strict()
  // On the object, not the pipe below: OpenAPI describes the input side of a transform.
  .meta({ examples: [domainExample] })
  .transform((input) => ({ ...input, timeout: input.timeout ?? defaultTimeout(input.checkInterval) }))
  .refine((input) => input.timeout < input.checkInterval, {
    message: TIMEOUT_BELOW_INTERVAL,
    path: ['timeout'],
  })
  .superRefine(refineDomain)
export type CreateDomainInput = z.input<typeof createDomainInput>

export const updateDomainInput = z
  .object({
    url: url.optional(),
    name: monitorName.optional(),
    checkInterval: checkInterval.optional(),
    timeout: checkTimeout.optional(),
    enabled: z.boolean().optional(),
    isApi: z.boolean().optional(),
    authType: authType.optional(),
    credentials: credentials.optional(),
    tags: tags.optional(),
    failureThreshold: failureThreshold.optional(),
    quorumPercent: quorumPercent.optional(),
    locations: locations.optional(),
    downAboveMs: responseTimeThreshold.nullable().optional(),
    ...clearable(httpOptions.shape),
  })
  .strict()
  .meta({
    description: 'Changes the given fields; `null` removes a check option. Credentials are write-only.',
    examples: [{ checkInterval: 30, keyword: null, expectedStatus: ['200-299'], locations: ['fra'] }],
  })
export type UpdateDomainInput = z.infer<typeof updateDomainInput>

export const domainRecord = z.object({
  id: z.string(),
  organizationId: z.string(),
  url: z.string(),
  name: z.string(),
  checkInterval: z.number(),
  timeout: z.number(),
  enabled: z.boolean(),
  locations: z.array(z.string()),
  tags: z.array(z.string()),
  isApi: z.boolean(),
  authType,
  credentialsSet: z.boolean(),
  options: z.object(optionalShape(httpOptions.shape)),
  downAboveMs: z.number().int().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type DomainRecord = z.infer<typeof domainRecord>

/** A figure over the checks of a window: null while it holds none (0 would read as an outage or an instant answer). */
const windowFigure = (description: string) => z.number().nullable().meta({ description })

export const domainListItem = z.object({
  id: z.string(),
  url: z.string(),
  name: z.string(),
  status: domainStatus,
  /** False while paused: no checks run, the status is the last one seen. */
  enabled: z.boolean(),
  uptimePercentage: windowFigure('percent of checks up over the last 24 hours; null before the first check'),
  responseTime: windowFigure('average ms over the last 24 hours; null before the first check'),
  createdAt: z.string(),
  lastError: lastErrorView.nullable().optional(),
  failingLocations: z.array(z.string()).optional(),
  tags: z.array(z.string()).optional(),
  groupId: z.string().nullable().optional().describe('The group the domain is in; null: none'),
})
export type DomainListItem = z.infer<typeof domainListItem>

export const alternativeListItem = z.object({
  id: z.string(),
  url: z.string(),
  name: z.string(),
  status: lifecycleStatus,
  check_interval: z.number().int(),
  last_check: z.string().nullable(),
  uptime_percentage: windowFigure('percent of checks up over the last 24 hours; null before the first check'),
  response_time_ms: windowFigure('average ms over the last 24 hours; null before the first check'),
  ssl_expires_at: z.string().nullable(),
  tags: z.array(z.string()),
  group_id: z.string().nullable().optional().describe('The group the domain is in; null: none'),
  created_at: z.string(),
  updated_at: z.string(),
})
export type AlternativeListItem = z.infer<typeof alternativeListItem>

export const certificateView = z.object({ valid: z.boolean(), expiresAt: z.string(), issuer: z.string() })

export const domainDetail = domainListItem.extend({
  lastCheck: z.string().nullable(),
  checkInterval: z.number(),
  enabled: z.boolean(),
  certificate: certificateView.nullable(),
  registration: registrationView.nullable(),
  timeout: z.number().optional(),
  locations: z.array(z.string()).optional(),
  isApi: z.boolean().optional(),
  authType: authType.optional(),
  /** Credentials are write-only: this says whether some are stored. */
  credentialsSet: z.boolean().optional(),
  downAboveMs: z.number().int().optional(),
  ...optionalShape(httpOptions.shape),
  ...dependencyDetailFields,
})
export type DomainDetail = z.infer<typeof domainDetail>

export const historyEntry = z.object({
  id: z.string(),
  domainId: z.string(),
  status: z.string(),
  responseTime: z.number(),
  statusCode: z.number().int(),
  timestamp: z.string(),
  /** The probe's location code. */
  location: z.string().optional(),
  phases: checkPhases.optional(),
  /** Only on a result that was not up. */
  errorKind: z.string().optional(),
  error: z.string().optional(),
})

/** `status` is `no probe` for a location of the domain where no probe is online (README "Locations"). */
export const locationPoint = z.object({
  timestamp: z.string(),
  status: z.string(),
  responseTime: z.number(),
  /** Only on a result that was not up. */
  errorKind: z.string().optional(),
  error: z.string().optional(),
})

export const domainStats = z.object({
  domain_id: z.string(),
  period: statsPeriod,
  uptime_percentage: windowFigure('percent; null without a check in the period'),
  total_checks: z.number().int(),
  successful_checks: z.number().int(),
  failed_checks: z.number().int(),
  average_response_time_ms: windowFigure('null without a check in the period'),
  min_response_time_ms: windowFigure('null without a check in the period'),
  max_response_time_ms: windowFigure('null without a check in the period'),
  p95_response_time_ms: windowFigure('null without a check in the period'),
  incidents_count: z.number().int(),
  total_downtime_seconds: z.number().int(),
  longest_incident_seconds: z.number().int(),
})
export type DomainStats = z.infer<typeof domainStats>

export const organizationDomainStats = z.object({
  total: z.number().int(),
  up: z.number().int(),
  down: z.number().int(),
  unknown: z.number().int(),
  avgResponseTime: windowFigure('ms over 24 hours; null while no domain has a check in them'),
  avgUptime: windowFigure('percent over 24 hours; null while no domain has a check in them'),
})

export const domainSummary = z.object({
  domain: z.object({ id: z.string(), name: z.string(), url: z.string() }),
  stats: z.object({
    uptime24h: windowFigure('percent; null without a check in the last 24 hours'),
    uptime7d: windowFigure('percent; null without a check in the last 7 days'),
    uptime30d: windowFigure('percent; null without a check in the last 30 days'),
    avgResponseTime: windowFigure('ms over 24 hours; null without a check in them'),
    totalChecks: z.number().int(),
    failedChecks: z.number().int(),
  }),
  certificate: z.object({ valid: z.boolean(), expiresAt: z.string() }).nullable(),
})

export const trendEntry = z.object({
  domainId: z.string(),
  domainName: z.string(),
  avgResponseTime: z.number(),
  minResponseTime: z.number(),
  maxResponseTime: z.number(),
  dataPoints: z.array(z.object({ timestamp: z.string(), responseTime: z.number() })),
})
