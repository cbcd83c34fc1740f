import { type CheckResult, type HttpTarget, parseCondition, readsStatus } from '@guard/shared'
import type { CheckContext, Checker, CheckOutcome } from '../../checker.ts'
import { elapsedSince, failed, roundMs, tlsErrorKind } from '../outcome.ts'
import { vetTarget } from '../vet-target.ts'
import { bodyProblem, statusExpected } from './assertions.ts'
import { conditionProblem } from './conditions.ts'
import { type ExchangeResponse, exchange } from './exchange.ts'

const MAX_REDIRECTS = 10
const REDIRECTS = new Set([301, 302, 303, 307, 308])

const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization'])

const withoutCredentials = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())))

/** The headers of the first request: the target's, the credentials, and JSON's Accept for API checks. */
function requestHeaders(target: HttpTarget): Record<string, string> {
  const headers: Record<string, string> = { ...(target.headers ?? {}) }
  const has = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name)
  if (target.expectJson && !has('accept')) headers.Accept = 'application/json'
  if (target.auth?.type === 'basic') {
    const pair = Buffer.from(`${target.auth.username}:${target.auth.password}`, 'utf8').toString('base64')
    headers.Authorization = `Basic ${pair}`
  }
  if (target.auth?.type === 'bearer') headers.Authorization = `Bearer ${target.auth.token}`
  return headers
}

export interface Hop {
  response: ExchangeResponse
  address: string
  dnsMs: number
}

/** Follows redirects hop by hop, vetting every new host, so a redirect cannot lead into the private network. */
export async function fetchFollowing(target: HttpTarget, context: CheckContext): Promise<Hop> {
  let url = new URL(target.url)
  let method: string = target.method
  let body = target.body
  let headers = requestHeaders(target)
  for (let hop = 0; ; hop++) {
    const vetted = await vetTarget(url.hostname, context)
    const response = await exchange({
      url,
      address: vetted.address,
      method,
      headers,
      body,
      signal: context.signal,
    })
    const location = response.headers.location
    const follow = target.followRedirects !== false && REDIRECTS.has(response.statusCode) && location
    if (!follow) return { response, address: vetted.address, dnsMs: roundMs(vetted.lookupMs) }
    if (hop + 1 >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`)
    const next = new URL(location, url)
    // As browsers do: credentials meant for one origin are not handed to another.
    if (next.origin !== url.origin) headers = withoutCredentials(headers)
    url = next
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`redirect to ${url.protocol} refused`)
    if (
      response.statusCode === 303 ||
      ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
    ) {
      method = 'GET'
      body = undefined
    }
  }
}

/**
 * Without an explicit `expectedStatus`, a condition on `[STATUS]` replaces the default 200-399, so
 * `[STATUS] == 404` can hold. A condition that no longer parses is reported by conditionProblem.
 */
function statusOwnedByConditions(target: HttpTarget): boolean {
  if (target.expectedStatus !== undefined || !target.conditions) return false
  return target.conditions.some((text) => {
    try {
      return readsStatus(parseCondition(text))
    } catch {
      return false
    }
  })
}

/** The credentials of the request, which an answer may echo back and a condition's message must not quote. */
function credentialsOf(target: HttpTarget): string[] {
  const headers = Object.entries(target.headers ?? {}).flatMap(([name, value]) =>
    CREDENTIAL_HEADERS.has(name.toLowerCase()) ? [value] : [],
  )
  if (target.auth?.type === 'bearer') return [...headers, target.auth.token]
  if (target.auth?.type === 'basic') {
    const pair = Buffer.from(`${target.auth.username}:${target.auth.password}`, 'utf8').toString('base64')
    return [...headers, target.auth.password, pair]
  }
  return headers
}

export function judge(
  target: HttpTarget,
  hop: Hop,
  responseTimeMs: number,
): Pick<CheckResult, 'status' | 'error' | 'errorKind'> {
  const { response } = hop
  if (response.certificateProblem && !target.ignoreTlsErrors) {
    return { status: 'down', error: response.certificateProblem, errorKind: tlsErrorKind(response.certificateProblem) }
  }
  if (!statusOwnedByConditions(target) && !statusExpected(response.statusCode, target.expectedStatus)) {
    const expected = (target.expectedStatus ?? ['200-399']).join(', ')
    return {
      status: 'down',
      error: `HTTP ${response.statusCode}, expected ${expected}`,
      errorKind: 'status_mismatch',
    }
  }
  const contentType = response.headers['content-type']
  const problem = bodyProblem(target, response.body, typeof contentType === 'string' ? contentType : undefined)
  if (problem) return { status: 'down', error: problem.message, errorKind: problem.kind }
  if (target.conditions?.length) {
    const failed = conditionProblem(
      target.conditions,
      {
        statusCode: response.statusCode,
        headers: response.headers,
        body: response.body,
        responseTimeMs,
        address: hop.address,
        certificateExpiresAt: response.certificate?.expiresAt,
        now: Date.now(),
      },
      credentialsOf(target),
    )
    if (failed) return { status: 'down', error: failed, errorKind: 'condition_failed' }
  }
  if (target.degradedAboveMs !== undefined && responseTimeMs > target.degradedAboveMs) {
    return {
      status: 'degraded',
      error: `responded in ${responseTimeMs} ms, above ${target.degradedAboveMs} ms`,
      errorKind: 'slow',
    }
  }
  return { status: 'up' }
}

/** An HTTP(S) request on a fresh connection, with its timing phases and, for https, the certificate. */
export const httpChecker: Checker<'http'> = {
  kind: 'http',
  async check(target, context): Promise<CheckOutcome> {
    const started = performance.now()
    try {
      const hop = await fetchFollowing(target, context)
      const responseTimeMs = elapsedSince(started)
      return {
        ...judge(target, hop, responseTimeMs),
        responseTimeMs,
        statusCode: hop.response.statusCode,
        phases: { dnsMs: hop.dnsMs, ...hop.response.phases },
        address: hop.address,
        ...(hop.response.certificate ? { certificate: hop.response.certificate } : {}),
      }
    } catch (error) {
      return failed(error, context, started)
    }
  },
}
