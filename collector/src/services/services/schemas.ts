import { dnsRecordType, dnsServer, icmpTarget, tlsTarget } from '@guard/shared'
import { z } from 'zod'
import { DEFAULT_RULES } from '../monitor-state/transition.ts'
import { defaultTimeout, TIMEOUT_BELOW_INTERVAL } from '../monitor-timing.ts'
import { refineHttpOptions } from '../monitors/http-options.ts'
import {
  authType,
  checkInterval,
  checkPhases,
  checkTimeout,
  credentials,
  failureThreshold,
  HTTP_OPTION_NAMES,
  httpOptions,
  lastErrorView,
  locations,
  monitorName,
  optionalShape,
  quorumPercent,
  type ServiceProtocol,
  serviceProtocol,
} from '../monitors/schemas.ts'

export { type ServiceProtocol, serviceProtocol }

/**
 * Where and how a service is checked. `host`, `port` and `path` as in the spec; the rest are the
 * options of the protocol's check, derived from the probe's contract (README "Services").
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
export type ProtocolConfig = z.infer<typeof protocolConfig>

const HTTP_ONLY = [...HTTP_OPTION_NAMES, 'path', 'isApi', 'authType', 'credentials'] as const
/** The options each protocol takes besides `host`. */
const OPTIONS: Record<ServiceProtocol, readonly string[]> = {
  http: ['port', ...HTTP_ONLY],
  https: ['port', ...HTTP_ONLY],
  tcp: ['port'],
  dns: ['recordType', 'expected', 'server'],
  tls: ['port', 'warnDays'],
  icmp: ['count'],
}

/** Options of another protocol are a 400 naming them, not silently ignored. */
export function refineProtocolConfig(
  protocol: ServiceProtocol,
  config: Partial<ProtocolConfig>,
  ctx: z.core.$RefinementCtx,
) {
  for (const [name, value] of Object.entries(config)) {
    if (name === 'host' || value === undefined) continue
    if (!OPTIONS[protocol].includes(name)) {
      ctx.addIssue({ code: 'custom', path: ['protocolConfig', name], message: `not an option of ${protocol}` })
    }
  }
  if (protocol === 'tcp' && config.port === undefined) {
    ctx.addIssue({ code: 'custom', path: ['protocolConfig', 'port'], message: 'a tcp service needs a port' })
  }
  if (protocol === 'http' || protocol === 'https') refineHttpOptions(config, ctx, ['protocolConfig'])
}

/** The same rules outside a schema, for a protocol or configuration changed on its own; throws a ZodError. */
export function assertProtocolConfig(protocol: ServiceProtocol, config: Partial<ProtocolConfig>): void {
  z.unknown()
    .superRefine((_value, ctx) => refineProtocolConfig(protocol, config, ctx))
    .parse(undefined)
}

const serviceExample = {
  name: 'Mail DNS',
  protocol: 'dns',
  protocolConfig: { host: 'example.org', recordType: 'MX', expected: 'mail.example.org', server: '1.1.1.1' },
  checkInterval: 60,
  timeout: 10,
  locations: ['fra'],
}

export const createServiceInput = z
  .object({
    name: monitorName,
    protocol: serviceProtocol,
    protocolConfig,
    /** Seconds between checks. */
    checkInterval: checkInterval.default(60),
    /** Seconds a check may take, below the interval. */
    timeout: checkTimeout.optional(),
    enabled: z.boolean().default(true),
    locations: locations.optional(),
    failureThreshold: failureThreshold.default(DEFAULT_RULES.failureThreshold),
    quorumPercent: quorumPercent.default(DEFAULT_RULES.quorumPercent),
  })
  .strict()
  .meta({ examples: [serviceExample] })
  .transform((input) => ({ ...input, timeout: input.timeout ?? defaultTimeout(input.checkInterval) }))
  .refine((input) => input.timeout < input.checkInterval, {
    message: TIMEOUT_BELOW_INTERVAL,
    path: ['timeout'],
  })
  .superRefine((input, ctx) => refineProtocolConfig(input.protocol, input.protocolConfig, ctx))
export type CreateServiceInput = z.input<typeof createServiceInput>

export const updateServiceInput = z
  .object({
    name: monitorName.optional(),
    protocol: serviceProtocol.optional(),
    /** Replaces the whole configuration; credentials are kept when the auth type stays and none are given. */
    protocolConfig: protocolConfig.optional(),
    checkInterval: checkInterval.optional(),
    timeout: checkTimeout.optional(),
    enabled: z.boolean().optional(),
    locations: locations.optional(),
    failureThreshold: failureThreshold.optional(),
    quorumPercent: quorumPercent.optional(),
  })
  .strict()
export type UpdateServiceInput = z.infer<typeof updateServiceInput>

/** The configuration as reads show it: credentials never, `credentialsSet` instead. */
export const protocolConfigView = protocolConfig.omit({ credentials: true }).extend({
  credentialsSet: z.boolean().optional(),
})
export type ProtocolConfigView = z.infer<typeof protocolConfigView>

export interface ServiceRecord {
  id: string
  organizationId: string
  name: string
  protocol: ServiceProtocol
  protocolConfig: ProtocolConfigView
  checkInterval: number
  timeout: number
  enabled: boolean
  locations: string[]
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
  protocolConfig: protocolConfigView,
  createdAt: z.string(),
  locations: z.array(z.string()).optional(),
  lastError: lastErrorView.nullable().optional(),
  failingLocations: z.array(z.string()).optional(),
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
  /** HTTP(S) services only. */
  phases: checkPhases.optional(),
  /** Only on a result that was not up, from probes that classify failures. */
  errorKind: z.string().optional(),
})

export const checkOutcome = z.object({ status: z.string(), responseTime: z.number(), message: z.string() })
