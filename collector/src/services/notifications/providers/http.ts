import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { resolveAllowedTarget } from '@guard/shared'
import type { HttpRequest, HttpResponse } from './provider.ts'

const MAX_ANSWER_BYTES = 64 * 1024

const pinnedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }

function encodeBody(request: HttpRequest): { body: string | undefined; contentType: string | undefined } {
  if (request.json !== undefined) return { body: JSON.stringify(request.json), contentType: 'application/json' }
  if (request.form)
    return { body: new URLSearchParams(request.form).toString(), contentType: 'application/x-www-form-urlencoded' }
  return { body: request.body, contentType: undefined }
}

/**
 * Sends a provider's request to a host the SSRF guard vetted at send time (a name that now
 * resolves into the private network is refused), connecting to the vetted address; no redirect is
 * followed and only the first 64 KiB of the answer is read. Throws on a network failure.
 */
export async function sendHttp(
  request: HttpRequest,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<HttpResponse> {
  const url = new URL(request.url)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${url.protocol} is not http(s)`)
  const signal = AbortSignal.timeout(options.timeoutMs)
  const vetted = await resolveAllowedTarget(url.hostname.replace(/^\[|\]$/g, ''), {
    allowPrivate: options.allowPrivate,
    signal,
  })
  const { body, contentType } = encodeBody(request)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return await new Promise<HttpResponse>((resolve, reject) => {
    const outgoing = send(url, {
      method: request.method,
      lookup: pinnedLookup(vetted.address, vetted.family),
      signal,
      headers: {
        'user-agent': 'GuardNotifications/0.1',
        ...(contentType ? { 'content-type': contentType } : {}),
        ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        ...request.headers,
      },
    })
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        if (size < MAX_ANSWER_BYTES) chunks.push(chunk)
        size += chunk.length
      })
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(response.headers).map(([name, value]) => [
              name,
              Array.isArray(value) ? value.join(', ') : String(value),
            ]),
          ),
          body: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8'),
        }),
      )
      response.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}
