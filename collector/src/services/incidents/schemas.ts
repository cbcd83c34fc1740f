import { incidentSeverity, incidentStatus } from '@guard/shared'
import { z } from 'zod'
import { dependentsAffectedView } from '../dependencies/schemas.ts'

export const incidentImpact = z.enum(['none', 'minor', 'major', 'critical'])
const text = (max: number) => z.string().trim().max(max)
const ids = z.array(z.string().min(1).max(64)).max(100)

export const incidentView = z.object({
  id: z.string(),
  organizationId: z.string(),
  title: z.string(),
  description: z.string(),
  status: incidentStatus,
  severity: incidentSeverity,
  impact: incidentImpact,
  cause: z.string().describe('down, certificate, registration, device-offline, device-health or manual'),
  monitorId: z.string().nullable().describe('The domain, service or device the incident came from'),
  monitorKind: z.string().nullable(),
  affectedServices: z.array(z.string()),
  affectedDomains: z.array(z.string()),
  affectedDevices: z.array(z.string()),
  detectedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable().describe('Who resolved it; null when it resolved automatically'),
  flapCount: z.number().int().describe('Times it reopened within the flapping window'),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type IncidentView = z.infer<typeof incidentView>

export const incidentUpdateView = z.object({
  id: z.string(),
  incidentId: z.string(),
  message: z.string(),
  status: incidentStatus,
  automatic: z.boolean(),
  author: z.string().nullable(),
  createdAt: z.string(),
})
export const incidentDetail = incidentView.extend({
  updates: z.array(incidentUpdateView),
  dependentsAffected: dependentsAffectedView.describe(
    'Monitors depending on this one whose failures were suppressed under this incident (README "Dependencies")',
  ),
})

export const incidentCommentView = z.object({
  id: z.string(),
  incidentId: z.string(),
  content: z.string(),
  isInternal: z.boolean(),
  author: z.string().nullable(),
  createdAt: z.string(),
})

export const listIncidentsQuery = z.object({
  status: incidentStatus.optional(),
  severity: incidentSeverity.optional(),
  organizationId: z.string().max(64).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
})

export const createIncidentInput = z.strictObject({
  title: text(200).min(1, 'title must not be empty'),
  description: text(5000).default(''),
  severity: incidentSeverity.default('medium'),
  impact: incidentImpact.default('major'),
  status: incidentStatus.exclude(['resolved']).default('open'),
  affectedServices: ids.default([]),
  affectedDomains: ids.default([]),
  affectedDevices: ids.default([]),
})
export type CreateIncidentInput = z.input<typeof createIncidentInput>

export const updateIncidentInput = z
  .strictObject({
    title: text(200).min(1, 'title must not be empty').optional(),
    description: text(5000).optional(),
    severity: incidentSeverity.optional(),
    impact: incidentImpact.optional(),
    status: incidentStatus.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'name at least one of title, description, severity, impact, status')
export type UpdateIncidentInput = z.input<typeof updateIncidentInput>

export const addUpdateInput = z.strictObject({
  message: text(5000).min(1, 'message must not be empty'),
  status: incidentStatus,
  notifySubscribers: z
    .boolean()
    .default(true)
    .describe('Whether subscribers of the status pages showing the incident are told of this update'),
})
export type AddUpdateInput = z.input<typeof addUpdateInput>

export const addCommentInput = z.strictObject({
  content: text(5000).min(1, 'content must not be empty'),
  isInternal: z.boolean().default(false),
})
export type AddCommentInput = z.input<typeof addCommentInput>
