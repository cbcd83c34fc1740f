import { type ProtocolDefinition, type protocolKinds, protocols, tcpTarget } from '@guard/shared'
import { z } from 'zod'
import { optionalShape } from '../monitors/schemas.ts'

/**
 * The service API side of the check-protocol registry (README "Check protocols"): every protocol
 * module registered in shared becomes a `protocol` of the services API, with its `protocolConfig`
 * schema, its target and its write-only secrets, without a line here per protocol.
 */
export const registryProtocols: readonly ProtocolDefinition[] = protocols

export const registryProtocolOf = (kind: string): ProtocolDefinition | undefined =>
  registryProtocols.find((protocol) => protocol.kind === kind)

export type RegistryKind = (typeof protocolKinds)[number]

const host = z.string().trim().min(1).max(253)
const port = tcpTarget.shape.port.optional()

type Shape = Record<string, z.ZodType>
const optionsOf = (protocol: ProtocolDefinition) => optionalShape(protocol.options.shape as Shape)

/** Its secret fields as the API takes them: optional (an update keeps what is stored), write-only. */
function secretShape(protocol: ProtocolDefinition) {
  return optionalShape(protocol.secrets.shape as Shape)
}

/** The OpenAPI component of a protocol's `protocolConfig`: `postgres` is `PostgresProtocolConfig`. */
export const configComponentId = (kind: string) => `${kind[0]?.toUpperCase()}${kind.slice(1)}ProtocolConfig`
/** The OpenAPI component of how reads show it: `PostgresProtocolConfigView`. */
export const configViewComponentId = (kind: string) => `${configComponentId(kind)}View`

/**
 * A registry protocol's `protocolConfig`: `host`, `port` (default: the protocol's), its options and
 * its secret fields flat beside them; strict, so an option of another protocol is a 400 naming it.
 * The `id` makes it one OpenAPI component that every route refers to, not a copy per route.
 */
function buildConfigSchema(protocol: ProtocolDefinition) {
  return z
    .object({ host, port, ...optionsOf(protocol), ...secretShape(protocol) })
    .strict()
    .meta({
      id: configComponentId(protocol.kind),
      title: `${protocol.label} protocolConfig`,
      description: `protocol \`${protocol.kind}\`: ${protocol.description}${
        protocol.secretFields.length ? ` Write-only: ${protocol.secretFields.join(', ')}.` : ''
      }`,
    })
}

/** How reads show it: the options, and `secretsSet` in place of the secrets. */
function buildConfigView(protocol: ProtocolDefinition) {
  return z
    .object({
      host: z.string(),
      port: port,
      ...optionsOf(protocol),
      ...(protocol.secretFields.length ? { secretsSet: z.boolean() } : {}),
    })
    .strict()
    .meta({ id: configViewComponentId(protocol.kind), title: `${protocol.label} protocolConfig` })
}

// Built once: a schema registered under an id must be the same object wherever it is used.
const configSchemas = new Map(registryProtocols.map((protocol) => [protocol.kind, buildConfigSchema(protocol)]))
const configViews = new Map(registryProtocols.map((protocol) => [protocol.kind, buildConfigView(protocol)]))

function registeredOnly<Schema>(schemas: Map<string, Schema>, protocol: ProtocolDefinition): Schema {
  const schema = schemas.get(protocol.kind)
  if (!schema) throw new Error(`${protocol.kind} is not a registered protocol`)
  return schema
}

export const registryConfigSchema = (protocol: ProtocolDefinition) => registeredOnly(configSchemas, protocol)
export const registryConfigView = (protocol: ProtocolDefinition) => registeredOnly(configViews, protocol)

export type RegistryConfig = { host: string; port?: number | undefined } & Record<string, unknown>

/** The protocol's rules between fields, as issues under `prefix`; the port defaulted as the probe will. */
export function refineRegistryConfig(
  protocol: ProtocolDefinition,
  config: RegistryConfig,
  ctx: z.core.$RefinementCtx,
  prefix: string[] = ['protocolConfig'],
) {
  const options = { ...config, port: config.port ?? protocol.defaultPort }
  for (const [path, message] of protocol.problems?.(options) ?? []) {
    ctx.addIssue({ code: 'custom', path: [...prefix, ...path], message })
  }
}

/** Validates a configuration against the protocol's own schema and rules; throws a ZodError. */
export function parseRegistryConfig(protocol: ProtocolDefinition, config: unknown): RegistryConfig {
  return z
    .object({ protocolConfig: registryConfigSchema(protocol) })
    .superRefine((input, ctx) => refineRegistryConfig(protocol, input.protocolConfig, ctx))
    .parse({ protocolConfig: config }).protocolConfig
}

/** The probe target (kind, host, port, options) and the secrets, which travel apart sealed. */
export function splitRegistryConfig(protocol: ProtocolDefinition, config: RegistryConfig) {
  const secrets: Record<string, unknown> = {}
  const target: Record<string, unknown> = { kind: protocol.kind }
  const port = config.port ?? protocol.defaultPort
  for (const [name, value] of Object.entries(config)) {
    if (value === undefined) continue
    if (protocol.secretFields.includes(name)) secrets[name] = value
    else target[name] = value
  }
  if (port !== undefined) target.port = port
  return { target, secrets: Object.keys(secrets).length ? secrets : undefined }
}

/** A stored target as the API shows it: no kind, never a secret, whether secrets are set. */
export function registryConfigOf(
  protocol: ProtocolDefinition,
  target: Record<string, unknown>,
  secretsSet: boolean,
): RegistryConfig {
  const { kind: _kind, secrets: _secrets, sealedSecrets: _sealed, ...config } = target
  return {
    ...(config as RegistryConfig),
    ...(protocol.secretFields.length ? { secretsSet } : {}),
  }
}
