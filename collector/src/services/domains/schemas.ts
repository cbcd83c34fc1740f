import { z } from 'zod'
import { DEFAULT_RULES } from '../monitor-state/transition.ts'
import { defaultTimeout, TIMEOUT_BELOW_INTERVAL } from '../monitor-timing.ts'

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

const interval = z.number().int().min(5).max(86_400)
const timeout = z.number().int().min(1).max(300)
const name = z.string().trim().min(1).max(200)
/** Consecutive failed checks after which a location counts as failing (README "Monitor state"). */
const failureThreshold = z.number().int().min(1).max(100)
/** Share of locations, in percent, that must be failing for the domain to be down. */
const quorumPercent = z.number().int().min(1).max(100)

export const createDomainInput = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }).max(2048),
    name: name.optional(),
    /** Seconds between checks. */
    checkInterval: interval.default(60),
    /** Seconds a check may take; below the interval so checks never overlap. */
    timeout: timeout.optional(),
    isApi: z.boolean().default(false),
    authType: z.enum(['none', 'basic', 'bearer']).default('none'),
    tags: z.array(z.string().trim().min(1).max(50)).max(20).default([]),
    failureThreshold: failureThreshold.default(DEFAULT_RULES.failureThreshold),
    quorumPercent: quorumPercent.default(DEFAULT_RULES.quorumPercent),
  })
  .strict()
  .transform((input) => ({ ...input, timeout: input.timeout ?? defaultTimeout(input.checkInterval) }))
  .refine((input) => input.timeout < input.checkInterval, {
    message: TIMEOUT_BELOW_INTERVAL,
    path: ['timeout'],
  })
export type CreateDomainInput = z.input<typeof createDomainInput>

export const updateDomainInput = z
  .object({
    name: name.optional(),
    checkInterval: interval.optional(),
    timeout: timeout.optional(),
    enabled: z.boolean().optional(),
    tags: z.array(z.string().trim().min(1).max(50)).max(20).optional(),
    failureThreshold: failureThreshold.optional(),
    quorumPercent: quorumPercent.optional(),
  })
  .strict()
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
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type DomainRecord = z.infer<typeof domainRecord>

export const domainListItem = z.object({
  id: z.string(),
  url: z.string(),
  name: z.string(),
  status: domainStatus,
  uptimePercentage: z.number(),
  responseTime: z.number(),
  createdAt: z.string(),
})
export type DomainListItem = z.infer<typeof domainListItem>

export const alternativeListItem = z.object({
  id: z.string(),
  url: z.string(),
  name: z.string(),
  status: lifecycleStatus,
  check_interval: z.number().int(),
  last_check: z.string().nullable(),
  uptime_percentage: z.number(),
  response_time_ms: z.number(),
  ssl_expires_at: z.string().nullable(),
  tags: z.array(z.string()),
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
})
export type DomainDetail = z.infer<typeof domainDetail>

export const historyEntry = z.object({
  id: z.string(),
  domainId: z.string(),
  status: z.string(),
  responseTime: z.number(),
  statusCode: z.number().int(),
  timestamp: z.string(),
})

export const locationPoint = z.object({ timestamp: z.string(), status: z.string(), responseTime: z.number() })

export const domainStats = z.object({
  domain_id: z.string(),
  period: statsPeriod,
  uptime_percentage: z.number(),
  total_checks: z.number().int(),
  successful_checks: z.number().int(),
  failed_checks: z.number().int(),
  average_response_time_ms: z.number(),
  min_response_time_ms: z.number(),
  max_response_time_ms: z.number(),
  p95_response_time_ms: z.number(),
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
  avgResponseTime: z.number(),
  avgUptime: z.number(),
})

export const domainSummary = z.object({
  domain: z.object({ id: z.string(), name: z.string(), url: z.string() }),
  stats: z.object({
    uptime24h: z.number(),
    uptime7d: z.number(),
    uptime30d: z.number(),
    avgResponseTime: z.number(),
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
