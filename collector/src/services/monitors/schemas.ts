import { errorKind, httpAuth, httpTargetObject, monitorTarget, protocolKinds } from '@guard/shared'
import { z } from 'zod'
import { DEFAULT_RULES } from '../monitor-state/transition.ts'
import { defaultTimeout, TIMEOUT_BELOW_INTERVAL } from '../monitor-timing.ts'
import { subjectTags } from '../tags/schemas.ts'
import { PROBE_KINDS } from './kinds/index.ts'

/** The API shapes of a probe-checked monitor (README "API decisions"), from the kind registry. */
export const monitorKind = z.enum(PROBE_KINDS)
export type MonitorKind = z.infer<typeof monitorKind>

/** The protocols the services API has always had, each with its own options in one protocolConfig. */
export const builtinServiceProtocol = z.enum(['http', 'https', 'tcp', 'dns', 'tls', 'icmp'])
export type BuiltinServiceProtocol = z.infer<typeof builtinServiceProtocol>
/** The built-in protocols and every protocol of the registry (README "Check protocols"). */
export const serviceProtocol = z.enum([...builtinServiceProtocol.options, ...protocolKinds])
export type ServiceProtocol = z.infer<typeof serviceProtocol>
export const isBuiltinProtocol = (protocol: string): protocol is BuiltinServiceProtocol =>
  (builtinServiceProtocol.options as readonly string[]).includes(protocol)

/** A registry protocol's write-only fields (passwords, tokens), validated by its own schema first. */
export const protocolSecrets = z.record(z.string(), z.unknown())
export type ProtocolSecrets = z.infer<typeof protocolSecrets>

export const checkInterval = z.number().int().min(5).max(86_400)
export const checkTimeout = z.number().int().min(1).max(300)
export const monitorName = z.string().trim().min(1).max(200)
/** Consecutive failed checks after which a location counts as failing (README "Monitor state"). */
export const failureThreshold = z.number().int().min(1).max(100)
/** Share of locations, in percent, that must be failing for the monitor to be down. */
export const quorumPercent = z.number().int().min(1).max(100)
/**
 * A response-time threshold in milliseconds, for any kind of check (README "Response-time
 * thresholds"); below the timeout, since a check never lasts longer.
 */
export const responseTimeThreshold = z.number().int().min(1).max(300_000)
/** `key` or `key:value`, normalised (README "Tags and bulk actions"). */
export const tags = subjectTags
/** Location codes as probes name themselves, or `*` for every probe. */
export const locationCode = z.string().regex(/^(\*|[a-z0-9-]{2,32})$/, 'must be a location code such as fra, or *')
export const locations = z.array(locationCode).min(1, 'name at least one location').max(50)

/** How a monitor authenticates to its target; `none` or credentials the probe sends. */
export const authType = z.enum(['none', 'basic', 'bearer'])
export type AuthType = z.infer<typeof authType>
/** Write-only: `{username, password}` for basic, `{token}` for bearer. Never returned. */
export const credentials = z
  .object({
    username: z.string().min(1).max(200).optional(),
    password: z.string().max(1000).optional(),
    token: z.string().min(1).max(8192).optional(),
  })
  .strict()
export type Credentials = z.infer<typeof credentials>

/**
 * The HTTP check options of the API, derived from the probe's contract (`httpTargetObject`), so the
 * API accepts exactly what the probe runs. `auth` and `expectJson` are set through `authType` +
 * `credentials` and `isApi`.
 */
const contractJsonPath = httpTargetObject.shape.jsonPath.unwrap()

export const httpOptions = httpTargetObject
  .extend({
    // The contract's `equals` is z.json(), a recursive schema OpenAPI generation cannot reference;
    // any value parsed from a JSON request body is JSON already.
    jsonPath: z
      .object({ path: contractJsonPath.shape.path, equals: z.unknown().optional() })
      .optional()
      .meta({ examples: [{ path: '$.status', equals: 'ok' }] }),
  })
  .pick({
    method: true,
    headers: true,
    body: true,
    expectedStatus: true,
    keyword: true,
    keywordAbsent: true,
    regex: true,
    jsonPath: true,
    followRedirects: true,
    degradedAboveMs: true,
    ignoreTlsErrors: true,
    conditions: true,
  })
export type HttpOptions = z.infer<typeof httpOptions>
export const HTTP_OPTION_NAMES = Object.keys(httpOptions.shape) as Array<keyof HttpOptions>

type Shape = Record<string, z.ZodType>

/** Every option optional and without its default, for shapes where an absent option stays absent. */
export function optionalShape<S extends Shape>(shape: S) {
  const entries = Object.entries(shape).map(([name, schema]) => {
    let inner: z.ZodType = schema
    while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType
    return [name, inner.optional()]
  })
  return Object.fromEntries(entries) as { [K in keyof S]: z.ZodOptional<z.ZodType<z.output<S[K]>>> }
}

/** For updates: every option optional, and `null` clears it. */
export function clearable<S extends Shape>(shape: S) {
  const entries = Object.entries(shape).map(([name, schema]) => {
    let inner: z.ZodType = schema
    while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType
    return [name, inner.nullable().optional()]
  })
  return Object.fromEntries(entries) as { [K in keyof S]: z.ZodOptional<z.ZodNullable<z.ZodType<z.output<S[K]>>>> }
}

/**
 * What the monitor layer stores and schedules, whichever API shape it came through. The target is
 * the contract's; its credentials travel apart (`auth`) because they are sealed at rest.
 */
/** Credentials never sit in the stored target: they go in `auth`, sealed at rest. */
const targetWithoutCredentials = monitorTarget.refine(
  (target) => target.kind !== 'http' || (target.auth === undefined && target.sealedAuth === undefined),
  { message: 'credentials go in auth, not in the target', path: ['auth'] },
)

export const monitorInput = z
  .object({
    kind: monitorKind,
    /** An organization of the caller's; default its current one. */
    organizationId: z.string().max(64).optional(),
    name: monitorName,
    protocol: serviceProtocol.optional(),
    target: targetWithoutCredentials,
    auth: httpAuth.optional(),
    secrets: protocolSecrets.optional(),
    isApi: z.boolean().default(false),
    checkInterval: checkInterval.default(60),
    timeout: checkTimeout.optional(),
    enabled: z.boolean().default(true),
    locations: locations.optional(),
    tags: tags.default([]),
    failureThreshold: failureThreshold.default(DEFAULT_RULES.failureThreshold),
    quorumPercent: quorumPercent.default(DEFAULT_RULES.quorumPercent),
    degradedAboveMs: responseTimeThreshold.optional(),
    downAboveMs: responseTimeThreshold.optional(),
  })
  .strict()
  .transform((input) => ({ ...input, timeout: input.timeout ?? defaultTimeout(input.checkInterval) }))
  .refine((input) => input.timeout < input.checkInterval, { message: TIMEOUT_BELOW_INTERVAL, path: ['timeout'] })
  .refine((input) => !(input.auth && input.secrets), { message: 'give auth or secrets, not both', path: ['secrets'] })
export type MonitorInput = z.input<typeof monitorInput>

/**
 * A partial change; `auth: null` or `secrets: null` removes the credentials, an absent field keeps
 * what is stored.
 */
export const monitorChanges = z
  .object({
    name: monitorName.optional(),
    protocol: serviceProtocol.optional(),
    target: targetWithoutCredentials.optional(),
    auth: httpAuth.nullable().optional(),
    secrets: protocolSecrets.nullable().optional(),
    isApi: z.boolean().optional(),
    checkInterval: checkInterval.optional(),
    timeout: checkTimeout.optional(),
    enabled: z.boolean().optional(),
    locations: locations.optional(),
    tags: tags.optional(),
    failureThreshold: failureThreshold.optional(),
    quorumPercent: quorumPercent.optional(),
    degradedAboveMs: responseTimeThreshold.nullable().optional(),
    downAboveMs: responseTimeThreshold.nullable().optional(),
  })
  .strict()
export type MonitorChanges = z.input<typeof monitorChanges>

export interface MonitorRecord {
  id: string
  organizationId: string
  kind: MonitorKind
  name: string
  protocol: ServiceProtocol | null
  target: z.infer<typeof monitorTarget>
  isApi: boolean
  authType: AuthType
  credentialsSet: boolean
  checkInterval: number
  timeout: number
  enabled: boolean
  locations: string[]
  tags: string[]
  failureThreshold: number
  quorumPercent: number
  degradedAboveMs: number | null
  downAboveMs: number | null
  createdAt: string
  updatedAt: string
}

/** Why a monitor or a location is failing: the last result that was not up. */
export const lastErrorView = z
  .object({
    kind: errorKind,
    message: z.string(),
    at: z.string(),
    location: z.string().optional(),
  })
  .meta({
    description: 'The newest result that was not up: machine-readable kind, human message, when and where.',
    examples: [
      {
        kind: 'status_mismatch',
        message: 'HTTP 503, expected 200-399',
        at: '2026-01-01T00:00:00.000Z',
        location: 'fra',
      },
    ],
  })
export type LastErrorView = z.infer<typeof lastErrorView>

/** Where a check's time went: DNS lookup, TCP connect, TLS handshake, first byte, transfer, query. */
export const checkPhases = z.object({
  dnsMs: z.number().optional(),
  connectMs: z.number().optional(),
  tlsMs: z.number().optional(),
  firstByteMs: z.number().optional(),
  transferMs: z.number().optional(),
  /** Databases: from the authenticated connection to the query's answer. */
  queryMs: z.number().optional(),
})
