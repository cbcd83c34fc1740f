import { JSONPath } from 'jsonpath-plus'
import { z } from 'zod'
import { ConditionSyntaxError, parseCondition } from '../conditions/parse.ts'
import { compilableRegex } from './target-fields.ts'

/** The HTTP check's target and its building blocks, which the multi-step flow's steps reuse. */

/** A status code (`200`) or an inclusive range (`"200-299"`). */
export const expectedStatus = z.union([
  z.number().int().min(100).max(999),
  z.string().regex(/^\d{3}-\d{3}$/, 'must be a code range such as 200-299'),
])

/**
 * Whether a JSONPath parses: it starts at the root `$`, its brackets, parentheses and quotes close,
 * and its filter expressions compile (jsonpath-plus only reports a broken filter when it runs it,
 * so it runs once against a document every filter visits).
 */
export function jsonPathParses(path: string): boolean {
  if (!path.startsWith('$')) return false
  const closing: Record<string, string> = { '[': ']', '(': ')' }
  const open: string[] = []
  let quote: string | undefined
  for (const char of path) {
    if (quote) {
      if (char === quote) quote = undefined
      continue
    }
    if (char === "'" || char === '"') quote = char
    else if (char === '[' || char === '(') open.push(closing[char]!)
    else if ((char === ']' || char === ')') && open.pop() !== char) return false
  }
  if (quote || open.length > 0) return false
  try {
    JSONPath({ path, json: { a: [{ a: 1 }], b: { a: 1 } }, wrap: true })
    return true
  } catch {
    return false
  }
}

/**
 * Gatus-style assertions on the answer (README "Conditions"), each parsed by the one grammar the
 * probe runs, so the API refuses what the probe could not evaluate, naming the condition and column.
 */
export const httpConditions = z
  .array(z.string().max(500))
  .max(50)
  .superRefine((conditions, ctx) => {
    conditions.forEach((condition, index) => {
      try {
        parseCondition(condition)
      } catch (error) {
        if (!(error instanceof ConditionSyntaxError)) throw error
        ctx.addIssue({ code: 'custom', path: [index], message: `condition ${index + 1}: ${error.message}` })
      }
    })
  })
  .meta({ examples: [['[STATUS] == 200', '[BODY].data.id == 1', 'len([BODY].items) > 0', '[RESPONSE_TIME] < 500']] })

/** Headers a check may not set: the probe owns framing and the connection, and `Host` follows the URL. */
export const FORBIDDEN_HEADERS = [
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'expect',
]
export const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be a valid header name')
export const headerValue = z
  .string()
  .max(8192)
  .regex(/^[^\r\n\0]*$/, 'must not contain line breaks')

/** Credentials the probe sends; the collector keeps them encrypted and never returns them. */
export const httpAuth = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('basic'),
    username: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^:]*$/, 'must not contain ":"'),
    password: z.string().max(1000),
  }),
  z.object({ type: z.literal('bearer'), token: z.string().min(1).max(8192) }),
])
export type HttpAuth = z.infer<typeof httpAuth>

/**
 * The HTTP check's options. Kept as a plain object so the API derives its own schemas from it
 * (pick, extend); the rules between fields are `httpTargetProblems`, applied by both.
 */
export const httpTargetObject = z.object({
  kind: z.literal('http'),
  url: z.url({ protocol: /^https?$/ }),
  method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).default('GET'),
  headers: z.record(headerName, headerValue).optional(),
  /** Not with GET or HEAD. */
  body: z.string().max(65_536).optional(),
  /** Default: 200-399. */
  expectedStatus: z.array(expectedStatus).min(1).optional(),
  /** The body must contain this text (must not, with `keywordAbsent`). */
  keyword: z.string().min(1).max(1000).optional(),
  /** Turns `keyword` around: the check fails when the text appears. */
  keywordAbsent: z.boolean().optional(),
  /** The body must match this regular expression. */
  regex: compilableRegex.max(1000).optional(),
  /** The body parsed as JSON must have a value at this JSONPath, equal to `equals` when given. */
  jsonPath: z
    .object({
      path: z.string().min(1).max(1000).refine(jsonPathParses, { message: 'must be a JSONPath such as $.status' }),
      equals: z.json().optional(),
    })
    .optional(),
  /** Default: true, up to 10 hops. */
  followRedirects: z.boolean().optional(),
  /** An answer slower than this is `degraded` rather than `up`. */
  degradedAboveMs: z.number().int().positive().optional(),
  /** Accept an invalid or expired certificate (its details are still reported). */
  ignoreTlsErrors: z.boolean().optional(),
  /** An API endpoint: the answer must be JSON (a JSON content type and a body that parses). */
  expectJson: z.boolean().optional(),
  /** Every one must hold, in order; the first that fails makes the check `down` with `condition_failed`. */
  conditions: httpConditions.optional(),
  auth: httpAuth.optional(),
  /**
   * `auth` sealed for probes (AES-256-GCM under GUARD_PROBE_CREDENTIALS_KEY, see
   * probe-credentials.ts), in place of `auth`, so the schedule never carries credentials in the clear.
   */
  sealedAuth: z.string().min(1).max(20_000).optional(),
})

type HttpFields = Partial<
  Pick<
    z.infer<typeof httpTargetObject>,
    'method' | 'headers' | 'body' | 'keywordAbsent' | 'keyword' | 'auth' | 'sealedAuth'
  >
>

/** Combinations of HTTP options the probe would not run as meant, as `[field path, message]`. */
export function httpTargetProblems(target: HttpFields): Array<[string[], string]> {
  const problems: Array<[string[], string]> = []
  for (const name of Object.keys(target.headers ?? {})) {
    if (FORBIDDEN_HEADERS.includes(name.toLowerCase())) {
      problems.push([['headers', name], `${name} is set by the probe and cannot be given`])
    }
    if ((target.auth || target.sealedAuth) && name.toLowerCase() === 'authorization') {
      problems.push([['headers', name], 'Authorization comes from authType and its credentials'])
    }
  }
  const method = target.method ?? 'GET'
  if (target.body !== undefined && (method === 'GET' || method === 'HEAD')) {
    problems.push([['body'], `a ${method} request has no body; use POST, PUT or PATCH`])
  }
  if (target.auth && target.sealedAuth) problems.push([['sealedAuth'], 'give auth or sealedAuth, not both'])
  if (target.keywordAbsent !== undefined && target.keyword === undefined) {
    problems.push([['keywordAbsent'], 'needs a keyword'])
  }
  return problems
}

export const httpTarget = httpTargetObject.superRefine((target, ctx) => {
  for (const [path, message] of httpTargetProblems(target)) ctx.addIssue({ code: 'custom', path, message })
})
