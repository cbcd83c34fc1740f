import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { GuardError, resolveAllowedTarget, TargetRefusedError } from '@guard/shared'

export interface FetchedPage {
  /** Where the page was found, after redirects. */
  url: string
  status: number
  body: string
}

const MAX_BYTES = 512 * 1024
const MAX_REDIRECTS = 5
const TIMEOUT_MS = 5000

/** Connects to the address the guard vetted, never resolving the name a second time. */
const pinnedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }

function get(url: URL, address: string, family: 4 | 6, signal: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'GET',
      lookup: pinnedLookup(address, family),
      signal,
      headers: { 'user-agent': 'GuardCollector/0.1 (+page title and icon)', accept: 'text/html,*/*;q=0.5' },
    })
    outgoing.on('response', resolve)
    outgoing.on('error', reject)
    outgoing.end()
  })
}

async function readBody(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response) {
    const buffer = chunk as Buffer
    chunks.push(buffer)
    size += buffer.length
    // A title and icon links sit in the head; the rest of a huge page is not worth reading.
    if (size >= MAX_BYTES) break
  }
  response.destroy()
  return Buffer.concat(chunks).subarray(0, MAX_BYTES).toString('utf8')
}

/**
 * GETs a page for the collector itself (title, icon) under the same target guard as the probe:
 * every hop of a redirect chain is vetted, so a public page cannot redirect into the private network.
 */
export async function fetchPage(target: string, options: { allowPrivate: boolean }): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(TIMEOUT_MS)
  let url = new URL(target)
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new GuardError('VALIDATION_ERROR', `url: redirected to a non-http(s) URL ${url.protocol}`)
      }
      const vetted = await resolveAllowedTarget(url.hostname, { allowPrivate: options.allowPrivate, signal })
      const response = await get(url, vetted.address, vetted.family, signal)
      const location = response.headers.location
      if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
        response.destroy()
        url = new URL(location, url)
        continue
      }
      return { url: url.toString(), status: response.statusCode ?? 0, body: await readBody(response) }
    }
    throw new GuardError('VALIDATION_ERROR', `url: more than ${MAX_REDIRECTS} redirects`)
  } catch (error) {
    if (error instanceof GuardError) throw error
    if (error instanceof TargetRefusedError) throw new GuardError('TARGET_NOT_ALLOWED', error.message)
    // The URL is the caller's input: an unreachable page is their problem to fix, not a server fault.
    const reason = error instanceof Error ? error.message : String(error)
    throw new GuardError('VALIDATION_ERROR', `url: could not be fetched (${reason})`)
  }
}
