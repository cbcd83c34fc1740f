import { z } from 'zod'
import { defineProtocol } from './define.ts'

/** gRPC metadata keys: lowercase on the wire (the probe lowers them), no pseudo-headers. */
const metadataKey = z
  .string()
  .regex(/^[0-9A-Za-z_.-]{1,100}$/, 'must be a metadata key: letters, digits, "-", "_" and "."')
/** Printable ASCII, as the gRPC spec allows in ASCII metadata values. */
const metadataValue = z
  .string()
  .max(8192)
  .regex(/^[\x20-\x7e]*$/, 'must be printable ASCII')

/** Keys the probe or HTTP/2 owns; a check setting them would not run as meant. */
const RESERVED_KEYS = new Set(['content-type', 'te', 'host', 'user-agent', 'connection', 'authorization'])

/**
 * The standard gRPC health check (`grpc.health.v1.Health/Check`): up when the server, or the
 * named service, answers SERVING (README "gRPC health checks").
 */
export const grpcProtocol = defineProtocol({
  kind: 'grpc',
  label: 'gRPC health',
  description:
    'Calls grpc.health.v1.Health/Check on the server; up when it answers SERVING for the whole server or the named service.',
  options: z.object({
    service: z.string().max(200).optional().meta({
      description: 'The service name to ask about, e.g. "my.package.Orders". Default: "" (the whole server).',
    }),
    tls: z
      .boolean()
      .optional()
      .meta({ description: 'Connect over TLS; the certificate is verified and reported. Default: false.' }),
    ignoreTlsErrors: z.boolean().optional().meta({
      description: 'With tls: accept an invalid or expired certificate (its details are still reported).',
    }),
    metadata: z
      .record(metadataKey, metadataValue)
      .optional()
      .meta({ description: 'Metadata (request headers) sent with the call, name to ASCII value; at most 20.' }),
  }),
  secrets: z.object({
    bearerToken: z
      .string()
      .min(1)
      .max(8192)
      .regex(/^[\x20-\x7e]*$/, 'must be printable ASCII')
      .meta({ description: 'Sent as the metadata `authorization: Bearer <token>`. Write-only.' }),
  }),
  problems: (config) => {
    const problems: Array<[string[], string]> = []
    if (config.port === undefined && !config.tls) {
      problems.push([['port'], 'a plaintext gRPC check needs a port (with tls it defaults to 443)'])
    }
    if (config.ignoreTlsErrors !== undefined && !config.tls) problems.push([['ignoreTlsErrors'], 'needs tls'])
    const keys = Object.keys(config.metadata ?? {})
    if (keys.length > 20) problems.push([['metadata'], 'at most 20 entries'])
    const seen = new Set<string>()
    for (const key of keys) {
      const lower = key.toLowerCase()
      if (seen.has(lower)) problems.push([['metadata', key], `${key} is given twice (keys are case-insensitive)`])
      seen.add(lower)
      if (lower.startsWith('grpc-') || RESERVED_KEYS.has(lower)) {
        const hint = lower === 'authorization' ? '; give bearerToken instead, which is kept secret' : ''
        problems.push([['metadata', key], `${key} is set by the probe and cannot be given${hint}`])
      }
      if (lower.endsWith('-bin')) problems.push([['metadata', key], 'binary (-bin) metadata is not supported'])
    }
    return problems
  },
})
