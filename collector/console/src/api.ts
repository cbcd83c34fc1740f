import { sessionState } from './session.ts'

/** An error answer of the API, with the API's own code and message. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  constructor(status: number, code: string, message: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
  }
}

export type Query = Record<string, string | number | boolean | undefined | null | Array<string | number>>

let organizationId: string | undefined
let onSignedOut: (() => void) | undefined

/** The organization every call is scoped to (X-Organization-Id), set by the org switcher. */
export const apiScope = {
  setOrganization: (id: string | undefined) => {
    organizationId = id
  },
  organization: () => organizationId,
  onSignedOut: (handler: () => void) => {
    onSignedOut = handler
  },
}

export function withQuery(path: string, query?: Query): string {
  if (!query) return path
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item))
    else params.set(key, String(value))
  }
  const text = params.toString()
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path
}

function headers(body: boolean): Record<string, string> {
  const result: Record<string, string> = { accept: 'application/json' }
  if (body) result['content-type'] = 'application/json'
  const csrf = sessionState.get()?.csrfToken
  if (csrf) result['x-csrf-token'] = csrf
  if (organizationId) result['x-organization-id'] = organizationId
  return result
}

async function errorOf(response: Response): Promise<ApiError> {
  let code = 'HTTP_ERROR'
  let message = `The server answered ${response.status} ${response.statusText}`.trim()
  try {
    const body = (await response.json()) as { error?: unknown; message?: unknown; detail?: unknown; code?: unknown }
    if (typeof body.error === 'string') code = body.error
    else if (typeof body.code === 'string') code = body.code
    if (typeof body.message === 'string') message = body.message
    else if (typeof body.detail === 'string') message = body.detail
  } catch {
    // Not JSON (a proxy's page): the status line is all there is to say.
  }
  if (response.status === 401) onSignedOut?.()
  return new ApiError(response.status, code, message)
}

async function send(method: string, path: string, body?: unknown): Promise<Response> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: headers(body !== undefined),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
  } catch {
    throw new ApiError(0, 'NETWORK', 'Guard could not be reached; check the connection and try again')
  }
  if (!response.ok) throw await errorOf(response)
  return response
}

async function json<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await send(method, path, body)
  if (response.status === 204) return undefined as T
  const text = await response.text()
  return (text ? JSON.parse(text) : undefined) as T
}

/** The typed client of the public REST API every screen uses (same routes as API keys and assistants). */
export const api = {
  get: <T>(path: string, query?: Query) => json<T>('GET', withQuery(path, query)),
  post: <T>(path: string, body?: unknown) => json<T>('POST', path, body),
  put: <T>(path: string, body?: unknown) => json<T>('PUT', path, body),
  patch: <T>(path: string, body?: unknown) => json<T>('PATCH', path, body),
  del: <T>(path: string, body?: unknown) => json<T>('DELETE', path, body),
  /** Posts `body` and calls `onLine` with each parsed line of an NDJSON answer as it arrives. */
  async stream<T>(path: string, body: unknown, onLine: (line: T) => void, signal?: AbortSignal): Promise<void> {
    const response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { ...headers(true), accept: 'application/x-ndjson' },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    })
    if (!response.ok) throw await errorOf(response)
    const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader()
    if (!reader) return
    let buffer = ''
    for (;;) {
      const { done, value } = await reader.read()
      if (value) buffer += value
      let newline = buffer.indexOf('\n')
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim()
        buffer = buffer.slice(newline + 1)
        if (line) onLine(JSON.parse(line) as T)
        newline = buffer.indexOf('\n')
      }
      if (done) break
    }
    if (buffer.trim()) onLine(JSON.parse(buffer) as T)
  },
}

/** The API's envelope `{ success, data }` most routes answer with. */
export interface Envelope<T> {
  success: boolean
  data: T
}
