import { Resolver } from 'node:dns/promises'
import { forbiddenAddressReason, TargetRefusedError } from '@guard/shared/net'

/**
 * A resolver of its own per check, with one try bounded by the timeout. A custom server is a
 * target like any other: a private one needs GUARD_ALLOW_PRIVATE_TARGETS.
 */
export function resolverFor(server: string | undefined, timeoutMs: number, allowPrivate: boolean): Resolver {
  const resolver = new Resolver({ timeout: Math.max(1, Math.floor(timeoutMs)), tries: 1 })
  if (server) {
    const address = server.includes('.') && server.includes(':') ? server.slice(0, server.lastIndexOf(':')) : server
    const reason = allowPrivate ? undefined : forbiddenAddressReason(address)
    if (reason) {
      throw new TargetRefusedError(
        `refused: DNS server ${address} is a ${reason} address; set GUARD_ALLOW_PRIVATE_TARGETS=1 to allow private targets`,
      )
    }
    resolver.setServers([server])
  }
  return resolver
}
