import type { IncomingHttpHeaders } from 'node:http'

/**
 * The cookies set along a flow, per host, sent back on later steps to the same host. Attributes
 * (Path, Expires, Secure…) are not honoured: a flow is one short session against hosts it names.
 */
export class CookieJar {
  readonly #byHost = new Map<string, Map<string, string>>()

  store(host: string, headers: IncomingHttpHeaders): void {
    const cookies = this.#byHost.get(host) ?? new Map<string, string>()
    for (const line of headers['set-cookie'] ?? []) {
      const pair = line.split(';', 1)[0]!
      const equals = pair.indexOf('=')
      if (equals <= 0) continue
      cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim())
    }
    if (cookies.size > 0) this.#byHost.set(host, cookies)
  }

  header(host: string): string | undefined {
    const cookies = this.#byHost.get(host)
    if (!cookies || cookies.size === 0) return undefined
    return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}
