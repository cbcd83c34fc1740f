import { request as httpRequest } from 'node:http'
import { truncateText } from '@guard/shared'

export type SendOutcome =
  | { kind: 'stored' }
  /** Worth trying again later: the collector is unreachable, overloaded or asks to wait. */
  | { kind: 'retry'; reason: string; afterMs?: number }
  /** The collector will never take this heartbeat (malformed, too large, another device's). */
  | { kind: 'rejected'; status: number; reason: string }

/**
 * node:http rather than fetch: undici alone would add a tenth to the agent's memory. node:https
 * (with TLS and crypto) is loaded only for an https collector.
 */
async function post(url: URL, headers: Record<string, string>, body: Buffer, timeoutMs: number) {
  const send = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest
  return new Promise<{ status: number; retryAfter: string | undefined; text: string }>((resolve, reject) => {
    const request = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': body.length },
      timeout: timeoutMs,
    })
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    request.on('error', reject)
    request.on('response', (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => {
        if (text.length < 1000) text += chunk
      })
      response.on('error', reject)
      response.on('end', () => {
        const retryAfter = response.headers['retry-after']
        resolve({ status: response.statusCode ?? 0, retryAfter, text })
      })
    })
    request.end(body)
  })
}

/**
 * POST /agent with the device token and a heartbeat already gzip-compressed (as the spool keeps
 * it). Never throws: every failure is an outcome the caller decides on, so a collector error
 * cannot crash the agent.
 */
export async function sendHeartbeat(
  collectorUrl: string,
  token: string,
  gzipBody: Buffer,
  timeoutMs = 15_000,
): Promise<SendOutcome> {
  try {
    const response = await post(
      new URL('/agent', collectorUrl),
      { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      gzipBody,
      timeoutMs,
    )
    if (response.status >= 200 && response.status < 300) return { kind: 'stored' }
    const reason = `collector answered ${response.status}: ${truncateText(response.text, 200)}`
    if (response.status === 429 || response.status === 408 || response.status >= 500) {
      const retryAfter = Number(response.retryAfter)
      return { kind: 'retry', reason, ...(retryAfter > 0 ? { afterMs: retryAfter * 1000 } : {}) }
    }
    // A wrong or regenerated token is the operator's to fix; keep the heartbeats until then.
    if (response.status === 401) return { kind: 'retry', reason }
    return { kind: 'rejected', status: response.status, reason }
  } catch (error) {
    return { kind: 'retry', reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }
  }
}
