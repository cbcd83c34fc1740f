import { z } from 'zod'

export const domainStatus = z.enum(['up', 'down', 'unknown'])
export const timeRange = z.enum(['1h', '24h', '7d', '30d'])
export type TimeRange = z.infer<typeof timeRange>

export const rangeSeconds: Record<TimeRange, number> = {
  '1h': 3600,
  '24h': 86_400,
  '7d': 7 * 86_400,
  '30d': 30 * 86_400,
}

export const createDomainInput = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }),
    name: z.string().trim().min(1).max(200).optional(),
    /** Seconds between checks. */
    checkInterval: z.number().int().min(5).max(86_400).default(60),
    /** Seconds a check may take; below the interval so checks never overlap. */
    timeout: z.number().int().min(1).max(300).optional(),
    isApi: z.boolean().default(false),
    authType: z.enum(['none', 'basic', 'bearer']).default('none'),
  })
  .strict()
  .transform((input) => ({ ...input, timeout: input.timeout ?? Math.min(30, input.checkInterval - 1) }))
  .refine((input) => input.timeout < input.checkInterval, {
    message: 'timeout must be less than checkInterval',
    path: ['timeout'],
  })
export type CreateDomainInput = z.input<typeof createDomainInput>

export const domainRecord = z.object({
  id: z.string(),
  organizationId: z.string(),
  url: z.string(),
  name: z.string(),
  checkInterval: z.number(),
  timeout: z.number(),
  enabled: z.boolean(),
  locations: z.array(z.string()),
  createdAt: z.string(),
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
