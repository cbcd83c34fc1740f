import { resolveAllowedTarget } from '@guard/shared/net'
import type { BrowserContext } from 'playwright-core'

const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:'])

export interface Refusal {
  url: string
  method: string
  reason: string
}

/**
 * Puts every request of the context's pages, and every WebSocket, through the probe's SSRF
 * guard: a host resolving to a private, loopback or link-local address is refused unless the
 * operator allows private targets, and any scheme but http(s) and ws(s) (file:, chrome:) is
 * refused outright. Each host is vetted once per run.
 */
export async function guardEgress(
  context: BrowserContext,
  allowPrivate: boolean,
  onRefused: (refusal: Refusal) => void,
): Promise<void> {
  const verdicts = new Map<string, Promise<string | undefined>>()
  const vet = (url: string): Promise<string | undefined> => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return Promise.resolve('refused: not a URL')
    }
    if (!ALLOWED_SCHEMES.has(parsed.protocol))
      return Promise.resolve(`refused: ${parsed.protocol} URLs are not allowed`)
    let verdict = verdicts.get(parsed.hostname)
    if (!verdict) {
      verdict = resolveAllowedTarget(parsed.hostname, { allowPrivate, signal: AbortSignal.timeout(5000) }).then(
        () => undefined,
        (error: Error) => error.message,
      )
      verdicts.set(parsed.hostname, verdict)
    }
    return verdict
  }
  await context.route('**/*', async (route) => {
    const request = route.request()
    const refused = await vet(request.url())
    if (refused === undefined) return route.continue()
    onRefused({ url: request.url(), method: request.method(), reason: refused })
    return route.abort('blockedbyclient')
  })
  await context.routeWebSocket(/.*/, async (socket) => {
    const refused = await vet(socket.url())
    if (refused === undefined) {
      socket.connectToServer()
      return
    }
    onRefused({ url: socket.url(), method: 'WEBSOCKET', reason: refused })
    await socket.close({ code: 1008, reason: 'refused by the probe' })
  })
}
