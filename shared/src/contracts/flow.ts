import { z } from 'zod'
import { headerName, httpTargetObject, jsonPathParses } from './http-target.ts'
import { compilableRegex } from './target-fields.ts'

/**
 * Multi-step API checks (README "Synthetic checks"): ordered HTTP requests where later steps use
 * values extracted from earlier answers. A step's request and assertions are the HTTP check's
 * options; `{{name}}` in its url, header values and body is a variable extracted by an earlier step,
 * `{{secrets.NAME}}` one of the monitor's sealed secrets.
 */

/** A variable name as `{{name}}` writes it. */
export const flowVariableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a name such as token (letters, digits, _)')

export const flowExtraction = z.discriminatedUnion('from', [
  z.strictObject({
    name: flowVariableName,
    from: z.literal('json'),
    path: z.string().min(1).max(1000).refine(jsonPathParses, { message: 'must be a JSONPath such as $.token' }),
  }),
  z.strictObject({ name: flowVariableName, from: z.literal('header'), header: headerName }),
  z.strictObject({
    name: flowVariableName,
    from: z.literal('regex'),
    /** Over the body; the first capture group, or the whole match without one. */
    pattern: compilableRegex.min(1).max(1000),
  }),
  z.strictObject({ name: flowVariableName, from: z.literal('status') }),
])
export type FlowExtraction = z.infer<typeof flowExtraction>

/** Header values may hold `{{…}}` and are checked for line breaks once interpolated. */
const templatedHeaderValue = z.string().max(8192)

const http = httpTargetObject.shape

export const flowStep = z.strictObject({
  name: z.string().trim().min(1).max(100),
  method: http.method,
  /** An http(s) URL once its `{{…}}` are replaced. */
  url: z
    .string()
    .min(1)
    .max(2000)
    .regex(/^(https?:\/\/|\{\{)/, 'must start with http:// or https:// (or a {{variable}})'),
  headers: z.record(headerName, templatedHeaderValue).optional(),
  body: http.body,
  expectedStatus: http.expectedStatus,
  keyword: http.keyword,
  keywordAbsent: http.keywordAbsent,
  regex: http.regex,
  // The HTTP target's `equals` is z.json(), a recursive schema OpenAPI generation cannot reference;
  // any value parsed from a JSON body is JSON already.
  jsonPath: z.object({ path: http.jsonPath.unwrap().shape.path, equals: z.unknown().optional() }).optional(),
  expectJson: http.expectJson,
  conditions: http.conditions,
  followRedirects: http.followRedirects,
  ignoreTlsErrors: http.ignoreTlsErrors,
  extract: z.array(flowExtraction).max(20).optional(),
  /** Runs even after an earlier step failed (clean-up); a failure of its own fails the run too. */
  alwaysRun: z.boolean().optional(),
  /** This step's own limit; the check's timeout bounds the whole flow. Default: what is left of it. */
  timeoutMs: z.number().int().min(100).max(300_000).optional(),
})
export type FlowStep = z.infer<typeof flowStep>

/** Names of secrets, as `{{secrets.NAME}}` writes them. */
export const flowSecretName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a name such as API_KEY')

export const flowTarget = z
  .object({
    kind: z.literal('flow'),
    /** `api` for now; browser journeys will be a second type of the synthetic kind. */
    steps: z.array(flowStep).min(1).max(20),
    secrets: z.record(flowSecretName, z.string().max(8192)).optional(),
    sealedSecrets: z.string().min(1).max(20_000).optional(),
  })
  .superRefine((target, ctx) => {
    const names = new Set<string>()
    target.steps.forEach((step, index) => {
      if (names.has(step.name)) ctx.addIssue({ code: 'custom', path: ['steps', index, 'name'], message: 'repeats' })
      names.add(step.name)
      if (step.body !== undefined && (step.method === 'GET' || step.method === 'HEAD')) {
        ctx.addIssue({ code: 'custom', path: ['steps', index, 'body'], message: `a ${step.method} has no body` })
      }
    })
  })
export type FlowTarget = z.infer<typeof flowTarget>

const millis = z.number().nonnegative()

/** One step of a run, as results carry it in `details.steps`. */
export const flowStepRun = z.object({
  name: z.string(),
  /** `skipped`: not run, since an earlier step failed and this one is not `alwaysRun`. */
  outcome: z.enum(['passed', 'failed', 'skipped']),
  statusCode: z.number().int().optional(),
  error: z.string().max(2000).optional(),
  dnsMs: millis.optional(),
  connectMs: millis.optional(),
  tlsMs: millis.optional(),
  firstByteMs: millis.optional(),
  totalMs: millis,
})
export type FlowStepRun = z.infer<typeof flowStepRun>
