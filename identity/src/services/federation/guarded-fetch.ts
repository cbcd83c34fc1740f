import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { resolveAllowedTarget } from '@guard/shared'

/** Discovery documents, JWKS, tokens and userinfo are small; anything bigger is not an OpenID provider. */
const MAX_BYTES = 1024 * 1024
const TIMEOUT_MS = 10_000

export interface FetchOptions {
  method?: string
  headers?: Record<string, string>
  /** A string or URLSearchParams from openid-client; sent as its string form. */
  body?: unknown
  signal?: AbortSignal | null | undefined
}

const pinnedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }

async function readBody(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response) {
    size += (chunk as Buffer).length
    if (size > MAX_BYTES) throw new Error(`the provider answered more than ${MAX_BYTES} bytes`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/**
 * The fetch openid-client talks to an upstream provider with: the host is resolved and vetted
 * first (no private, loopback or metadata address unless the operator allowed private targets)
 * and the connection goes to that vetted address, so a DNS answer that changes in between cannot
 * point identity at the network around it. Redirects are not followed.
 */
export function guardedFetch(allowPrivate: boolean) {
  return async (input: string | URL, options: FetchOptions = {}): Promise<Response> => {
    const url = new URL(input)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) URL: ${url.protocol}`)
    const signal = options.signal ?? AbortSignal.timeout(TIMEOUT_MS)
    const vetted = await resolveAllowedTarget(url.hostname, { allowPrivate, signal })
    const body = options.body === undefined || options.body === null ? undefined : String(options.body)
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = send(url, {
        method: options.method ?? 'GET',
        headers: {
          'user-agent': 'GuardIdentity/0.1 (+federation)',
          ...options.headers,
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
        lookup: pinnedLookup(vetted.address, vetted.family),
        signal,
      })
      outgoing.on('response', resolve)
      outgoing.on('error', reject)
      outgoing.end(body)
    })
    const headers = new Headers()
    for (const [name, value] of Object.entries(response.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item)
      else if (value !== undefined) headers.set(name, value)
    }
    const status = response.statusCode ?? 502
    const content = await readBody(response)
    return new Response(status === 204 || status === 304 ? null : content, { status, headers })
  }
}
