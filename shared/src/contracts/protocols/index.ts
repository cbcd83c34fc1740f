/**
 * The check protocols beyond the built-in five (http, tcp, dns, tls, icmp), one module each.
 * Adding one: its module here, its target in `protocolTargets`, its checker in the probe's
 * `checkers/index.ts`; the services API, OpenAPI, the console form, MCP and the CLI follow.
 */
export * from './define.ts'

/** Their kinds, as check results name them. */
export const protocolKinds = [] as const

export const protocols = [] as const

export const protocolTargets = [] as const
