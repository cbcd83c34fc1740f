import { z } from 'zod'
import type { BuiltinServiceProtocol } from '../monitors/schemas.ts'
import { registryProtocols } from './registry-protocols.ts'
import { BUILTIN_OPTIONS, protocolConfig } from './schemas.ts'

/** One protocol as `GET /api/protocols` describes it; the console builds its form from it. */
export const protocolInfo = z.object({
  /** The service API's `protocol`. */
  kind: z.string(),
  label: z.string(),
  description: z.string(),
  /** Built into the services API (its options share the spec's protocolConfig) rather than a registry module. */
  builtIn: z.boolean(),
  /** The port used when protocolConfig gives none. */
  defaultPort: z.number().int().optional(),
  /** JSON Schema of its options besides `host` and `port`. */
  options: z.record(z.string(), z.unknown()),
  /** Write-only option names: given beside the options, never returned (`secretsSet` instead). */
  secretFields: z.array(z.string()),
})
export type ProtocolInfo = z.infer<typeof protocolInfo>

const BUILTIN: Record<BuiltinServiceProtocol, { label: string; description: string; defaultPort?: number }> = {
  http: { label: 'HTTP', description: 'An HTTP request; up on an expected status and body.', defaultPort: 80 },
  https: {
    label: 'HTTPS',
    description: 'An HTTP request over TLS; up on an expected status and body, with the certificate checked.',
    defaultPort: 443,
  },
  tcp: { label: 'TCP port', description: 'Opens a TCP connection; up when the port accepts it.' },
  dns: { label: 'DNS', description: 'Resolves a record; up when it answers, with the expected value if given.' },
  tls: {
    label: 'TLS certificate',
    description: 'A TLS handshake; up while the certificate is valid and not about to expire.',
    defaultPort: 443,
  },
  icmp: { label: 'Ping (ICMP)', description: 'Echo requests; up when replies come back.' },
}

const jsonSchemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>

function builtinInfo(kind: BuiltinServiceProtocol): ProtocolInfo {
  const names = BUILTIN_OPTIONS[kind].filter((name) => name !== 'port')
  const picked = Object.fromEntries(names.map((name) => [name, true])) as Partial<
    Record<keyof typeof protocolConfig.shape, true>
  >
  return { kind, ...BUILTIN[kind], builtIn: true, options: jsonSchemaOf(protocolConfig.pick(picked)), secretFields: [] }
}

let described: ProtocolInfo[] | undefined

/** Every protocol a service can use, built-in first; the same for every caller, computed once. */
export function listProtocols(): ProtocolInfo[] {
  described ??= [
    ...(Object.keys(BUILTIN) as BuiltinServiceProtocol[]).map(builtinInfo),
    ...registryProtocols.map((protocol) => ({
      kind: protocol.kind,
      label: protocol.label,
      description: protocol.description,
      builtIn: false,
      ...(protocol.defaultPort === undefined ? {} : { defaultPort: protocol.defaultPort }),
      options: jsonSchemaOf(protocol.options as z.ZodType),
      secretFields: protocol.secretFields,
    })),
  ]
  return described
}
