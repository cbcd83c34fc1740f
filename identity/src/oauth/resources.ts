import { OAuthError } from './oauth-error.ts'

/** The MCP endpoints a collector serves at its public base URL: the resources identity issues tokens for. */
export const mcpResourcesOf = (collectorUrl: string): string[] => {
  const base = collectorUrl.replace(/\/+$/, '')
  return [new URL(`${base}/mcp`).href, new URL(`${base}/api/mcp`).href]
}

/** One spelling per resource, so `http://host:80/mcp` and `http://host/mcp` are the same one. */
export function canonicalResource(value: string): string | undefined {
  if (value.includes('#')) return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  return url.href
}

/**
 * RFC 8707 §2: `resource` is an absolute URI without a fragment, and identity issues tokens
 * only for the resources it was told about (GUARD_MCP_RESOURCES): anything else is invalid_target.
 */
export function knownResource(known: readonly string[], value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const canonical = canonicalResource(value)
  if (!canonical) throw new OAuthError('invalid_target', 'resource must be an absolute http(s) URL without a fragment')
  if (!known.includes(canonical)) throw new OAuthError('invalid_target', `resource ${value} is not one identity serves`)
  return canonical
}
