const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * DNS rebinding defence: a browser page on another site always sends its Origin, and the Host it
 * sends is whatever name the attacker's DNS points at us, so Host proves nothing and only Origin
 * is checked. Allowed: no Origin (non-browser clients), the public URL's origin, configured
 * origins, and loopback pages (a developer's local tools).
 */
export function originAllowed(
  origin: string | undefined,
  allowed: { publicUrl?: string | undefined; origins: string[] },
): boolean {
  if (origin === undefined) return true
  let parsed: URL
  try {
    parsed = new URL(origin)
  } catch {
    return false
  }
  if (LOOPBACK.has(parsed.hostname)) return true
  const permitted = [...allowed.origins, ...(allowed.publicUrl ? [new URL(allowed.publicUrl).origin] : [])]
  return permitted.includes(parsed.origin)
}
