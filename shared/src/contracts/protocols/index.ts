/**
 * The check protocols beyond the built-in five (http, tcp, dns, tls, icmp), one module each.
 * Adding one: its module here, its target in `protocolTargets`, its checker in the probe's
 * `checkers/index.ts`; the services API, OpenAPI, the console form, MCP and the CLI follow.
 */
import { udpProtocol } from './udp.ts'

export * from './define.ts'
export * from './udp.ts'

/** Their kinds, as check results name them. */
export const protocolKinds = ['udp'] as const

export const protocols = [udpProtocol] as const

export const protocolTargets = [udpProtocol.target] as const
