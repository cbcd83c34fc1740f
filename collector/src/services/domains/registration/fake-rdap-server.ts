import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A recorded RDAP answer of Verisign's .com server (registrar and contacts replaced), for fakes. */
export const recordedExampleCom = (): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL('./fixtures/example-com.rdap.json', import.meta.url), 'utf8'))

/** The recorded answer for `name`, with its expiration event moved to `expiresAt`. */
export function rdapAnswer(name: string, expiresAt: Date): Record<string, unknown> {
  const answer = recordedExampleCom()
  const events = answer.events as Array<{ eventAction: string; eventDate: string }>
  return {
    ...answer,
    ldhName: name.toUpperCase(),
    events: events.map((event) =>
      event.eventAction === 'expiration' ? { ...event, eventDate: expiresAt.toISOString() } : event,
    ),
  }
}

export interface FakeAnswer {
  status?: number
  contentType?: string
  /** A value is sent as JSON, a string as is. */
  body?: unknown
  /** Milliseconds before the answer starts. */
  delayMs?: number
}

/**
 * An RDAP server on 127.0.0.1: `GET /domain/{name}` answers what `answers` holds for the name
 * (404 with an RDAP error body otherwise), other paths what `files` holds; it records every
 * request with its Authorization header, and holds slow answers no longer than their delay.
 */
export async function startFakeRdapServer() {
  const answers = new Map<string, FakeAnswer>()
  const files = new Map<string, FakeAnswer>()
  const requests: Array<{ path: string; authorization: string | undefined; accept: string | undefined }> = []
  const server = createServer((request, response) => {
    const path = request.url ?? '/'
    requests.push({ path, authorization: request.headers.authorization, accept: request.headers.accept })
    const name = path.match(/^\/domain\/([^/?]+)$/)?.[1]
    const answer = (name ? answers.get(decodeURIComponent(name)) : files.get(path)) ?? {
      status: 404,
      body: { errorCode: 404, title: 'Not Found', description: ['The object does not exist.'] },
    }
    const send = () => {
      if (response.destroyed) return
      const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {})
      response
        .writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/rdap+json' })
        .end(body)
    }
    if (answer.delayMs) setTimeout(send, answer.delayMs).unref()
    else send()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    answers,
    files,
    requests,
    /** Requests for one domain so far. */
    lookupsOf: (name: string) => requests.filter((entry) => entry.path === `/domain/${name}`).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
