import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { GuardError, resolveAllowedTarget, TargetRefusedError } from '@guard/shared'

export interface ProviderRequest {
  method: 'GET' | 'POST'
  url: string
  headers?: Record<string, string>
  /** Sent as `application/x-www-form-urlencoded` (OAuth token requests). */
  form?: Record<string, string>
}

export interface ProviderResponse {
  status: number
  /** Parsed JSON, or undefined when the body was not JSON. */
  json: unknown
}

export interface ProviderHttpOptions {
  /** How this platform is named in messages ("cloud-a"). */
  provider: string
  timeoutMs: number
  allowPrivate: boolean
}

/** A provider answer the caller may act on (401, 404, OAuth errors); everything else is a 502 already. */
export class ProviderStatusError extends Error {
  override name = 'ProviderStatusError'
  constructor(
    readonly status: number,
    readonly json: unknown,
    provider: string,
  ) {
    super(`${provider} answered ${status}`)
  }
}

const MAX_BYTES = 5 * 1024 * 1024
/** Answers worth one more try of an idempotent read: the platform failed or was briefly busy. */
const retryable = (status: number) => status === 429 || status >= 500

const pinnedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }

async function readJson(response: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response) {
    size += (chunk as Buffer).length
    if (size > MAX_BYTES) throw new Error(`answer larger than ${MAX_BYTES} bytes`)
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

async function send(request: ProviderRequest, options: ProviderHttpOptions): Promise<ProviderResponse> {
  const signal = AbortSignal.timeout(options.timeoutMs)
  const url = new URL(request.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) URL: ${url.protocol}`)
  const vetted = await resolveAllowedTarget(url.hostname, { allowPrivate: options.allowPrivate, signal })
  const body = request.form ? new URLSearchParams(request.form).toString() : undefined
  const headers: Record<string, string> = {
    'user-agent': 'GuardCollector/0.1 (+integrations)',
    accept: 'application/json',
    ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    ...request.headers,
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(url, {
      method: request.method,
      headers,
      lookup: pinnedLookup(vetted.address, vetted.family),
      signal,
    })
    outgoing.on('response', resolve)
    outgoing.on('error', reject)
    outgoing.end(body)
  })
  return { status: response.statusCode ?? 0, json: await readJson(response) }
}

function unreachable(error: unknown, options: ProviderHttpOptions): GuardError {
  if (error instanceof TargetRefusedError) return new GuardError('TARGET_NOT_ALLOWED', error.message)
  const name = error instanceof Error ? error.name : ''
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  const reason =
    name === 'TimeoutError' || name === 'AbortError'
      ? `no answer within ${options.timeoutMs} ms`
      : code
        ? `${code}`
        : 'the connection failed'
  return new GuardError('BAD_GATEWAY', `${options.provider} could not be reached (${reason}); nothing was changed`)
}

/**
 * One call to an external platform: the target is vetted by the SSRF guard (unless the operator
 * allows private targets) and connected to by the vetted address, bounded by a timeout, and an
 * idempotent read is tried once more when the platform was unreachable or briefly unavailable.
 * A 2xx answer is returned; 4xx answers are ProviderStatusError for the caller to interpret;
 * everything else is a 502 that names the platform but never echoes what it sent.
 */
export async function callProvider(request: ProviderRequest, options: ProviderHttpOptions): Promise<ProviderResponse> {
  const attempts = request.method === 'GET' ? 2 : 1
  let failure: GuardError | undefined
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    let response: ProviderResponse
    try {
      response = await send(request, options)
    } catch (error) {
      failure = unreachable(error, options)
      if (failure.code === 'TARGET_NOT_ALLOWED') throw failure
      continue
    }
    if (response.status >= 200 && response.status < 300) return response
    if (response.status >= 400 && !retryable(response.status)) {
      throw new ProviderStatusError(response.status, response.json, options.provider)
    }
    failure = new GuardError('BAD_GATEWAY', `${options.provider} answered ${response.status}; nothing was changed`)
    if (!retryable(response.status)) break
  }
  throw failure ?? new GuardError('BAD_GATEWAY', `${options.provider} could not be reached`)
}

/** An OAuth error code (RFC 6749 §5.2) from a token endpoint's answer, when it is a plain one. */
export function oauthErrorCode(json: unknown): string | undefined {
  const code = (json as { error?: unknown } | undefined)?.error
  return typeof code === 'string' && /^[a-z_]{1,64}$/.test(code) ? code : undefined
}

/** The answer as the schema's type, or a 502 saying the platform sent something unusable. */
export function parseAnswer<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  json: unknown,
  provider: string,
  what: string,
): T {
  const parsed = schema.safeParse(json)
  if (!parsed.success) throw new GuardError('BAD_GATEWAY', `${provider} answered an unexpected ${what}`)
  return parsed.data
}

/** The timeout and private-target rule every call to a platform runs under. */
export const httpOptionsOf = (
  env: { GUARD_INTEGRATION_TIMEOUT_MS: number; GUARD_ALLOW_PRIVATE_TARGETS: boolean },
  provider: string,
): ProviderHttpOptions => ({
  provider,
  timeoutMs: env.GUARD_INTEGRATION_TIMEOUT_MS,
  allowPrivate: env.GUARD_ALLOW_PRIVATE_TARGETS,
})
