import type { Client } from './client.ts'

/** `localhost` too: RFC 8252 §8.3 prefers the IP literals, but MCP clients commonly register it. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

export const isLoopbackRedirect = (url: URL) => url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)

/**
 * Exact string match against a registered URI. The one exception (RFC 8252 §7.3): a native
 * (public) client's loopback URI matches on any port, because the app listens on whatever port
 * the OS gives it. Everything but the port must still match.
 */
export function isRegisteredRedirectUri(client: Client, requested: string): boolean {
  if (client.redirectUris.includes(requested)) return true
  if (!client.isPublic) return false
  let url: URL
  try {
    url = new URL(requested)
  } catch {
    return false
  }
  if (!isLoopbackRedirect(url)) return false
  url.port = ''
  const withoutPort = url.href
  return client.redirectUris.some((registered) => {
    const candidate = new URL(registered)
    if (!isLoopbackRedirect(candidate)) return false
    candidate.port = ''
    return candidate.href === withoutPort
  })
}
