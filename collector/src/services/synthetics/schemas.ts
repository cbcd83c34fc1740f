import { flowSecretName, flowStep, flowStepRun } from '@guard/shared'
import { z } from 'zod'
import { DEFAULT_RULES } from '../monitor-state/transition.ts'
import {
  checkInterval,
  checkTimeout,
  failureThreshold,
  locations,
  monitorName,
  quorumPercent,
  tags,
} from '../monitors/schemas.ts'

/** `api`: ordered HTTP steps. Browser journeys will be a second type. */
export const syntheticType = z.enum(['api'])

const steps = z.array(flowStep).min(1).max(20)
/** Write-only values the steps name as `{{secrets.NAME}}`; sealed at rest and for probes, never returned. */
const secrets = z
  .record(flowSecretName, z.string().min(1).max(8192))
  .refine((value) => Object.keys(value).length <= 20, {
    message: 'at most 20 secrets',
  })

/** The names `{{secrets.NAME}}` uses in the steps, so a missing secret is refused before any run. */
function secretReferences(given: z.infer<typeof steps>): Set<string> {
  const text = JSON.stringify(given)
  return new Set([...text.matchAll(/\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g)].map((match) => match[1]!))
}

export const createSyntheticInput = z
  .object({
    name: monitorName,
    type: syntheticType.default('api'),
    steps,
    secrets: secrets.optional(),
    checkInterval: checkInterval.default(300),
    timeout: checkTimeout.optional(),
    enabled: z.boolean().default(true),
    locations: locations.optional(),
    tags: tags.default([]),
    failureThreshold: failureThreshold.default(DEFAULT_RULES.failureThreshold),
    quorumPercent: quorumPercent.default(DEFAULT_RULES.quorumPercent),
  })
  .strict()
  .superRefine((input, ctx) => {
    for (const name of secretReferences(input.steps)) {
      if (!input.secrets?.[name])
        ctx.addIssue({ code: 'custom', path: ['secrets', name], message: 'is used and not given' })
    }
  })
export type CreateSyntheticInput = z.input<typeof createSyntheticInput>

/** A partial change; `secrets` are merged by name (`null` removes one), the steps replaced whole. */
export const updateSyntheticInput = z
  .object({
    name: monitorName.optional(),
    steps: steps.optional(),
    secrets: z.record(flowSecretName, z.string().min(1).max(8192).nullable()).optional(),
    checkInterval: checkInterval.optional(),
    timeout: checkTimeout.optional(),
    enabled: z.boolean().optional(),
    locations: locations.optional(),
    tags: tags.optional(),
    failureThreshold: failureThreshold.optional(),
    quorumPercent: quorumPercent.optional(),
  })
  .strict()
export type UpdateSyntheticInput = z.input<typeof updateSyntheticInput>

export const syntheticView = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  type: syntheticType,
  steps: z.array(flowStep),
  secretsSet: z.boolean().describe('whether secrets are stored; their values are never returned'),
  checkInterval: z.number().int(),
  timeout: z.number().int(),
  enabled: z.boolean(),
  locations: z.array(z.string()),
  tags: z.array(z.string()),
  failureThreshold: z.number().int(),
  quorumPercent: z.number().int(),
  groupId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type SyntheticView = z.infer<typeof syntheticView>

export const syntheticRunView = z.object({
  id: z.string(),
  location: z.string(),
  startedAt: z.string(),
  status: z.enum(['up', 'down', 'degraded']),
  responseTimeMs: z.number(),
  error: z.string().nullable().describe('the first failing step, by name, and why'),
  errorKind: z.string().nullable(),
  steps: z.array(flowStepRun),
})
export type SyntheticRunView = z.infer<typeof syntheticRunView>

export const runSyntheticInput = z
  .object({
    location: z
      .string()
      .regex(/^(any|[a-z0-9-]{2,32})$/, 'must be a location code such as fra, or any')
      .default('any'),
    store: z.boolean().default(false),
  })
  .strict()
