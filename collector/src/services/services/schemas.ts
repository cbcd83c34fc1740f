import { dnsRecordType, dnsServer, icmpTarget, tlsTarget } from '@guard/shared'
import { z } from 'zod'
import { dependencyDetailFields } from '../dependencies/schemas.ts'
import { DEFAULT_RULES } from '../monitor-state/transition.ts'
import { defaultTimeout, TIMEOUT_BELOW_INTERVAL } from '../monitor-timing.ts'
import { refineHttpOptions } from '../monitors/http-options.ts'
import {
  authType,
  type BuiltinServiceProtocol,
  builtinServiceProtocol,
  checkInterval,
  checkPhases,
  checkTimeout,
  credentials,
  failureThreshold,
  HTTP_OPTION_NAMES,
  httpOptions,
  isBuiltinProtocol,
  lastErrorView,
  locations,
  monitorName,
  optionalShape,
  quorumPercent,
  responseTimeThreshold,
  type ServiceProtocol,
  serviceProtocol,
  tags,
} from '../monitors/schemas.ts'
import {
  parseRegistryConfig,
  type RegistryConfig,
  type RegistryKind,
  refineRegistryConfig,
  registryConfigSchema,
  registryConfigView,
  registryProtocolOf,
  registryProtocols,
} from './registry-protocols.ts'

export { type ServiceProtocol, serviceProtocol }

/**
 * Where and how a service is checked. `host`, `port` and `path` as in the spec; the rest are the
 * options of the protocol's check, derived from the probe's contract (README "Services"). One
 * OpenAPI component, like each registry protocol's configuration.
 */
export const protocolConfig = z
  .object({
    host: z.string().trim().min(1).max(253),
    port: z.number().int().min(1).max(65_535).optional(),
    path: z.string().max(2000).regex(/^\//, 'path must start with /').optional(),
    ...optionalShape(httpOptions.shape),
    isApi: z.boolean().optional(),
    authType: authType.optional(),
    credentials: credentials.optional(),
    recordType: dnsRecordType.optional(),
    expected: z.string().min(1).max(1000).optional(),
    server: dnsServer.optional(),
    warnDays: tlsTarget.shape.warnDays,
    count: icmpTarget.shape.count,
  })
  .strict()
  .meta({ id: 'BuiltinProtocolConfig' })
export type ProtocolConfig = z.infer<typeof protocolConfig>

const HTTP_ONLY = [...HTTP_OPTION_NAMES, 'path', 'isApi', 'authType', 'credentials'] as const
/** The options each built-in protocol takes besides `host`. */
export const BUILTIN_OPTIONS: Record<BuiltinServiceProtocol, readonly string[]> = {
  http: ['port', ...HTTP_ONLY],
  https: ['port', ...HTTP_ONLY],
  tcp: ['port'],
  dns: ['recordType', 'expected', 'server'],
  tls: ['port', 'warnDays'],
  icmp: ['count'],
}

/** Options of another protocol are a 400 naming them, not silently ignored. */
function refineBuiltinConfig(
  protocol: BuiltinServiceProtocol,
  config: Partial<ProtocolConfig>,
  ctx: z.core.$RefinementCtx,
) {
  for (const [name, value] of Object.entries(config)) {
    if (name === 'host' || value === undefined) continue
    if (!BUILTIN_OPTIONS[protocol].includes(name)) {
      ctx.addIssue({ code: 'custom', path: ['protocolConfig', name], message: `not an option of ${protocol}` })
    }
  }
  if (protocol === 'tcp' && config.port === undefined) {
    ctx.addIssue({ code: 'custom', path: ['protocolConfig', 'port'], message: 'a tcp service needs a port' })
  }
  if (protocol === 'http' || protocol === 'https') refineHttpOptions(config, ctx, ['protocolConfig'])
}

/** The rules of the protocol between its options, built-in or from the registry. */
export function refineProtocolConfig(protocol: ServiceProtocol, config: object, ctx: z.core.$RefinementCtx) {
  if (isBuiltinProtocol(protocol)) return refineBuiltinConfig(protocol, config as Partial<ProtocolConfig>, ctx)
  const registered = registryProtocolOf(protocol)
  if (registered) refineRegistryConfig(registered, config as RegistryConfig, ctx)
}

/**
 * A configuration checked against the protocol's own schema and rules, for a protocol or
 * configuration changed on its own (an update need not repeat the protocol); throws a ZodError.
 */
export function assertProtocolConfig(protocol: ServiceProtocol, config: object): ServiceConfig {
  const registered = registryProtocolOf(protocol)
  if (registered) return parseRegistryConfig(registered, config)
  return z
    .object({ protocolConfig })
    .superRefine((input, ctx) => refineProtocolConfig(protocol, input.protocolConfig, ctx))
    .parse({ protocolConfig: config }).protocolConfig
}

/** The configuration of any protocol: the built-in shape, or a registry protocol's. */
export type ServiceConfig = Partial<ProtocolConfig> | RegistryConfig

const serviceExample = {
  name: 'Mail DNS',
  protocol: 'dns',
  protocolConfig: { host: 'example.org', recordType: 'MX', expected: 'mail.example.org', server: '1.1.1.1' },
  checkInterval: 60,
  timeout: 10,
  locations: ['fra'],
}

const serviceName = { name: monitorName }
const createFields = {
  /** Seconds between checks. */
  checkInterval: checkInterval.default(60),
  /** Seconds a check may take, below the interval. */
  timeout: checkTimeout.optional(),
  enabled: z.boolean().default(true),
  locations: locations.optional(),
  tags: tags.default([]),
  failureThreshold: failureThreshold.default(DEFAULT_RULES.failureThreshold),
  quorumPercent: quorumPercent.default(DEFAULT_RULES.quorumPercent),
  /** Milliseconds; slower checks of any protocol are degraded, then down (README "Response-time thresholds"). */
  degradedAboveMs: responseTimeThreshold.optional(),
  downAboveMs: responseTimeThreshold.optional(),
}

/**
 * One branch per protocol, told apart by `protocol`: the built-in protocols share the spec's
 * `protocolConfig`, each registry protocol has its own (README "Check protocols").
 */
export const createServiceInput = z
  .discriminatedUnion('protocol', [
    z.object({ ...serviceName, protocol: builtinServiceProtocol, protocolConfig, ...createFields }).strict(),
    ...registryProtocols.map((registered) =>
      z
        .object({
          ...serviceName,
          protocol: z.literal(registered.kind as RegistryKind),
          protocolConfig: registryConfigSchema(registered),
          ...createFields,
        })
        .strict(),
    ),
  ])
  .meta({ examples: [serviceExample] })
  .transform((input) => ({ ...input, timeout: input.timeout ?? defaultTimeout(input.checkInterval) }))
  .refine((input) => input.timeout < input.checkInterval, {
    message: TIMEOUT_BELOW_INTERVAL,
    path: ['timeout'],
  })
  .superRefine((input, ctx) => refineProtocolConfig(input.protocol, input.protocolConfig, ctx))
export type CreateServiceInput = z.input<typeof createServiceInput>

const optionalName = { name: monitorName.optional() }
const updateFields = {
  checkInterval: checkInterval.optional(),
  timeout: checkTimeout.optional(),
  enabled: z.boolean().optional(),
  locations: locations.optional(),
  tags: tags.optional(),
  failureThreshold: failureThreshold.optional(),
  quorumPercent: quorumPercent.optional(),
  /** `null` removes the threshold. */
  degradedAboveMs: responseTimeThreshold.nullable().optional(),
  downAboveMs: responseTimeThreshold.nullable().optional(),
}
const replacing = 'Replaces the whole configuration; credentials and secrets are kept when none are given.'

/**
 * Told apart by `protocol` like a create; without it, the configuration is the stored protocol's
 * and is checked against it once that is read.
 */
export const updateServiceInput = z.discriminatedUnion('protocol', [
  z
    .object({
      ...optionalName,
      protocol: builtinServiceProtocol,
      protocolConfig: protocolConfig.optional().meta({ description: replacing }),
      ...updateFields,
    })
    .strict(),
  ...registryProtocols.map((registered) =>
    z
      .object({
        ...optionalName,
        protocol: z.literal(registered.kind as RegistryKind),
        protocolConfig: registryConfigSchema(registered).optional().meta({ description: replacing }),
        ...updateFields,
      })
      .strict(),
  ),
  z
    .object({
      ...optionalName,
      // Absent: JSON Schema's `not: {}` says so, where zod's undefined would say "anything".
      protocol: z.undefined().optional().meta({ not: {} }),
      protocolConfig: z
        .union([protocolConfig, ...registryProtocols.map(registryConfigSchema)])
        .optional()
        .meta({ description: replacing }),
      ...updateFields,
    })
    .strict(),
])
export type UpdateServiceInput = z.infer<typeof updateServiceInput>

/** The configuration as reads show it: credentials never, `credentialsSet` instead. */
export const protocolConfigView = protocolConfig
  .omit({ credentials: true })
  .extend({ credentialsSet: z.boolean().optional() })
  .meta({ id: 'BuiltinProtocolConfigView' })
export type ProtocolConfigView = z.infer<typeof protocolConfigView>

/**
 * Any protocol's configuration as reads show it. The registry's views are strict and come first,
 * so the built-in view, which drops unknown fields, only takes what none of them describes.
 */
export const serviceConfigView = z.union([...registryProtocols.map(registryConfigView), protocolConfigView])
export type ServiceConfigView = z.infer<typeof serviceConfigView>

export interface ServiceRecord {
  id: string
  organizationId: string
  name: string
  protocol: ServiceProtocol
  protocolConfig: ServiceConfigView
  checkInterval: number
  timeout: number
  enabled: boolean
  locations: string[]
  tags: string[]
  degradedAboveMs: number | null
  downAboveMs: number | null
  createdAt: string
  updatedAt: string
}

export const serviceView = z.object({
  id: z.string(),
  name: z.string(),
  protocol: serviceProtocol,
  status: z.enum(['up', 'down', 'unknown']),
  lastCheck: z.string().nullable(),
  checkInterval: z.number().int(),
  timeout: z.number().int(),
  enabled: z.boolean(),
  consecutiveFailures: z.number().int(),
  protocolConfig: serviceConfigView,
  createdAt: z.string(),
  degradedAboveMs: z.number().int().optional(),
  downAboveMs: z.number().int().optional(),
  locations: z.array(z.string()).optional(),
  tags: z.array(z.string()),
  lastError: lastErrorView.nullable().optional(),
  failingLocations: z.array(z.string()).optional(),
  groupId: z.string().nullable().optional().describe('The group the service is in; null: none'),
  ...dependencyDetailFields,
})
export type ServiceView = z.infer<typeof serviceView>

export const serviceHistoryEntry = z.object({
  id: z.string(),
  serviceId: z.string(),
  status: z.string(),
  responseTime: z.number(),
  timestamp: z.string(),
  message: z.string(),
  /** The probe's location code. */
  location: z.string(),
  /** Protocols that time their steps (HTTP(S), TLS, UDP, databases, …). */
  phases: checkPhases.optional(),
  /** Only on a result that was not up, from probes that classify failures. */
  errorKind: z.string().optional(),
})

export const checkOutcome = z.object({ status: z.string(), responseTime: z.number(), message: z.string() })
