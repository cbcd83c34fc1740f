import { incidentSeverity, incidentStatus } from '@guard/shared'
import { z } from 'zod'

const organizationId = z.string().max(64)
export const componentStatus = z.enum(['up', 'down', 'degraded', 'unknown'])

export const organizationFilter = {
  organizationId: organizationId
    .optional()
    .describe("One of the caller's organizations; all of them when omitted (anonymous: public status pages)"),
}

export const incidentsInput = z.object({
  status: incidentStatus.optional(),
  severity: incidentSeverity.optional(),
  organizationId: organizationFilter.organizationId,
  limit: z.number().int().min(1).max(100).default(20),
})
export type IncidentsInput = z.input<typeof incidentsInput>

export const assistantIncident = z.object({
  id: z.string().nullable().describe('null for an incident read from a public status page'),
  organizationId: z.string(),
  title: z.string(),
  status: z.string(),
  severity: z.string(),
  impact: z.string(),
  detectedAt: z.string(),
  resolvedAt: z.string().nullable(),
})
export type AssistantIncident = z.infer<typeof assistantIncident>

export const incidentsResult = z.object({
  incidents: z.array(assistantIncident).describe('Newest first, at most `limit`'),
  total: z.number().int().describe('Incidents matching the filters'),
  summary: z.object({
    open: z.number().int().describe('Unresolved incidents'),
    critical: z.number().int().describe('Unresolved critical incidents'),
  }),
})
export type IncidentsResult = z.infer<typeof incidentsResult>

export const assistantDomain = z.object({
  id: z.string().nullable().describe('null for a domain read from a public status page'),
  organizationId: z.string(),
  name: z.string(),
  url: z.string().nullable(),
  status: componentStatus,
  responseTime: z.number().nullable().describe('24-hour average, ms'),
  uptime: z.number().nullable().describe('24-hour uptime, percent'),
})
export const domainsStatusResult = z.object({
  summary: z.object({
    total: z.number().int(),
    up: z.number().int(),
    down: z.number().int(),
    avgResponseTime: z.number().nullable().describe('ms, 24 hours; null while no domain has a check'),
    uptime: z.number().nullable().describe('average 24-hour uptime, percent; null while no domain has a check'),
  }),
  domains: z.array(assistantDomain).describe('At most 100 per organization'),
})
export type DomainsStatusResult = z.infer<typeof domainsStatusResult>

export const devicesInput = z.object({ organizationId: organizationId.describe('The organization whose devices') })
export const assistantDevice = z.object({
  id: z.string().nullable().describe('null for a device read from a public status page'),
  name: z.string(),
  status: componentStatus.describe('up: online and healthy; degraded: online with a warning or critical health'),
  healthStatus: z.string().nullable(),
  lastSeen: z.string().nullable(),
})
export const devicesStatusResult = z.object({
  devices: z.array(assistantDevice),
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
})
export type DevicesStatusResult = z.infer<typeof devicesStatusResult>

export const assistantHeartbeat = z.object({
  id: z.string().nullable().describe('null for a heartbeat read from a public status page'),
  name: z.string(),
  status: componentStatus,
  reason: z
    .string()
    .nullable()
    .describe('While down: missed, failed, exit_code or too_long (the errorKind of the run that took it down)'),
  lastPingAt: z.string().nullable(),
  nextExpectedAt: z.string().nullable().describe('When the next ping is due; down after this plus the grace time'),
})
export const heartbeatsStatusResult = z.object({
  heartbeats: z.array(assistantHeartbeat),
  total: z.number().int(),
  up: z.number().int(),
  down: z.number().int(),
})
export type HeartbeatsStatusResult = z.infer<typeof heartbeatsStatusResult>
