import {
  BROWSER_SCRIPT_MAX_BYTES,
  browserFailedRequestV1,
  browserNavigationV1,
  browserStepV1,
  browserTarget,
  flowSecretName,
  flowStep,
  flowStepRun,
} from '@guard/shared'
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

/** `api`: ordered HTTP steps; `browser`: a Playwright-style script run by probes with a browser. */
export const syntheticType = z.enum(['api', 'browser'])

/** The script of a browser check, at most BROWSER_SCRIPT_MAX_BYTES (64 KiB). */
const script = browserTarget.shape.script.describe(
  `a Playwright test script (README "Browser checks"), at most ${BROWSER_SCRIPT_MAX_BYTES} bytes`,
)

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

/** The names a browser script reads as `secrets.NAME` (or `secrets['NAME']`). */
function scriptSecretReferences(text: string): Set<string> {
  const dotted = [...text.matchAll(/\bsecrets\.([A-Za-z_][A-Za-z0-9_]*)/g)]
  const indexed = [...text.matchAll(/\bsecrets\[\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*\]/g)]
  return new Set([...dotted, ...indexed].map((match) => match[1]!))
}

/** Steps for `api`, a script for `browser`, never both; every secret used is given. */
function checkType(
  input: {
    type: 'api' | 'browser'
    steps?: unknown[] | undefined
    script?: string | undefined
    secrets?: Record<string, unknown> | undefined
    screenshotOnSuccess?: boolean | undefined
  },
  ctx: z.RefinementCtx,
) {
  if (input.type === 'api') {
    if (!input.steps) ctx.addIssue({ code: 'custom', path: ['steps'], message: 'is required for type api' })
    if (input.script !== undefined) ctx.addIssue({ code: 'custom', path: ['script'], message: 'is for type browser' })
    if (input.screenshotOnSuccess !== undefined)
      ctx.addIssue({ code: 'custom', path: ['screenshotOnSuccess'], message: 'is for type browser' })
  } else {
    if (input.script === undefined)
      ctx.addIssue({ code: 'custom', path: ['script'], message: 'is required for type browser' })
    if (input.steps) ctx.addIssue({ code: 'custom', path: ['steps'], message: 'is for type api' })
  }
  const used =
    input.type === 'api'
      ? secretReferences((input.steps ?? []) as z.infer<typeof steps>)
      : scriptSecretReferences(input.script ?? '')
  for (const name of used) {
    if (!input.secrets?.[name])
      ctx.addIssue({ code: 'custom', path: ['secrets', name], message: 'is used and not given' })
  }
}

export const createSyntheticInput = z
  .object({
    name: monitorName,
    type: syntheticType.default('api'),
    steps: steps.optional(),
    script: script.optional(),
    screenshotOnSuccess: z.boolean().optional().describe('browser: also keep a screenshot of runs that pass'),
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
  .superRefine(checkType)
export type CreateSyntheticInput = z.input<typeof createSyntheticInput>

/** A partial change; `secrets` are merged by name (`null` removes one), the steps replaced whole. */
export const updateSyntheticInput = z
  .object({
    name: monitorName.optional(),
    steps: steps.optional(),
    script: script.optional(),
    screenshotOnSuccess: z.boolean().optional(),
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
  steps: z.array(flowStep).describe('api: the steps; browser: empty'),
  script: z.string().nullable().describe('browser: the script; api: null'),
  screenshotOnSuccess: z.boolean(),
  browserUnavailableAt: z
    .array(z.string())
    .describe('browser: locations of the check with no connected probe that has a browser, where it cannot run'),
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
  steps: z.array(flowStepRun).describe('api: each step; browser: empty (see browser.steps)'),
  browser: z
    .object({
      testName: z.string(),
      timedOut: z.boolean(),
      failedStep: z.string().nullable(),
      steps: z.array(browserStepV1),
      navigations: z.array(browserNavigationV1).describe('Web Vitals of each document the page loaded'),
      consoleErrors: z.array(z.string()),
      failedRequests: z.array(browserFailedRequestV1),
      artifacts: z
        .object({ screenshot: z.string().optional(), trace: z.string().optional() })
        .describe('URLs of the stored screenshot and Playwright trace'),
    })
    .nullable()
    .describe('browser checks: what the run recorded'),
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
