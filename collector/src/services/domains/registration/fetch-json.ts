import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { parseWellFormedJson, resolveAllowedTarget, TargetRefusedError } from '@guard/shared'
import { RegistrationFailure } from './schemas.ts'

export interface FetchJsonOptions {
  accept: string
  timeoutMs: number
  maxBytes: number
  /**
   * Set for servers Guard did not get from its operator (the bootstrap's): every hop is vetted by
   * the target guard and connected to the vetted address. Unset for GUARD_RDAP_URL and the
   * bootstrap's own URL, which the operator chose.
   */
  guard?: { allowPrivate: boolean }
}

export interface FetchedJson {
  status: number
  /** The parsed body of a 2xx answer; undefined for any other status. */
  body: unknown
}

const MAX_REDIRECTS = 3

const pinnedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }

/** Where a URL points, for messages: its host, never the credentials it may carry. */
export const hostOf = (url: URL) => url.host

async function connect(url: URL, options: FetchJsonOptions, sendAuth: boolean, signal: AbortSignal) {
  const vetted = options.guard
    ? await resolveAllowedTarget(url.hostname.replace(/^\[|\]$/g, ''), {
        allowPrivate: options.guard.allowPrivate,
        signal,
      })
    : undefined
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  const credentials =
    sendAuth && url.username
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
      : undefined
  return new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        signal,
        ...(vetted ? { lookup: pinnedLookup(vetted.address, vetted.family) } : {}),
        headers: {
          accept: options.accept,
          'user-agent': 'GuardCollector/0.1 (+domain registration expiry)',
          ...(credentials ? { authorization: credentials } : {}),
        },
      },
      resolve,
    )
    outgoing.on('error', reject)
    outgoing.end()
  })
}

async function readJson(response: IncomingMessage, url: URL, maxBytes: number): Promise<unknown> {
  const declared = Number(response.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy()
    throw new RegistrationFailure('too_large', `${hostOf(url)} answered more than ${maxBytes} bytes`)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response) {
    size += (chunk as Buffer).length
    if (size > maxBytes) {
      response.destroy()
      throw new RegistrationFailure('too_large', `${hostOf(url)} answered more than ${maxBytes} bytes`)
    }
    chunks.push(chunk as Buffer)
  }
  try {
    return parseWellFormedJson(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw new RegistrationFailure('malformed', `${hostOf(url)} answered something that is not JSON`)
  }
}

function classify(error: unknown, url: URL, timeoutMs: number): RegistrationFailure {
  if (error instanceof RegistrationFailure) return error
  if (error instanceof TargetRefusedError) return new RegistrationFailure('refused_private_target', error.message)
  const name = error instanceof Error ? error.name : ''
  if (name === 'TimeoutError' || name === 'AbortError')
    return new RegistrationFailure('timeout', `${hostOf(url)} did not answer within ${timeoutMs} ms`)
  const code = (error as { code?: string } | undefined)?.code
  return new RegistrationFailure('network', `${hostOf(url)} could not be reached${code ? ` (${code})` : ''}`)
}

/**
 * GETs a JSON document within a time and size limit, following up to three redirects (RDAP
 * servers may redirect, RFC 7480). Credentials in the URL go as Basic auth to its origin only.
 * Throws a RegistrationFailure; a non-2xx answer is returned with its status, unread.
 */
export async function fetchJson(target: URL, options: FetchJsonOptions): Promise<FetchedJson> {
  const signal = AbortSignal.timeout(options.timeoutMs)
  let url = target
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new RegistrationFailure('http_status', `${hostOf(target)} redirected to a non-http(s) URL`)
      const response = await connect(url, options, url.origin === target.origin, signal)
      const status = response.statusCode ?? 0
      const location = response.headers.location
      if (status >= 300 && status < 400 && location) {
        response.destroy()
        url = new URL(location, url)
        continue
      }
      if (status < 200 || status >= 300) {
        response.destroy()
        return { status, body: undefined }
      }
      return { status, body: await readJson(response, url, options.maxBytes) }
    }
    throw new RegistrationFailure('http_status', `${hostOf(target)} redirected more than ${MAX_REDIRECTS} times`)
  } catch (error) {
    throw classify(error, url, options.timeoutMs)
  }
}
