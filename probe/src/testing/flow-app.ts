import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { closeServer, listenLocal } from './fixtures.ts'

/** The password the fixture app accepts; tests hand it to flows as a secret. */
export const FLOW_APP_PASSWORD = 'correct horse battery staple'

export interface FlowApp {
  url: string
  /** Every request as `METHOD /path`, in order. */
  requests: string[]
  /** Ids of the items still stored. */
  items: Map<string, string>
  close(): Promise<void>
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ''
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    request.on('end', () => resolve(body))
  })

const json = (response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(value))
}

/**
 * A small API on 127.0.0.1 for multi-step checks: POST /login → token (and a session cookie),
 * then items created, read and deleted with both; GET /broken always answers 500.
 */
export async function startFlowApp(): Promise<FlowApp> {
  const requests: string[] = []
  const items = new Map<string, string>()
  const tokens = new Set<string>()
  let next = 1
  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0]!
    requests.push(`${request.method} ${path}`)
    const body = await readBody(request)
    if (request.method === 'POST' && path === '/login') {
      const credentials = JSON.parse(body || '{}') as { user?: string; password?: string }
      if (credentials.password !== FLOW_APP_PASSWORD) return json(response, 401, { error: 'bad credentials' })
      const token = `tok-${next++}`
      tokens.add(token)
      return json(response, 200, { token, user: { name: credentials.user } }, { 'set-cookie': 'session=s1; Path=/' })
    }
    if (path === '/broken') return json(response, 500, { error: 'broken' })
    const token = request.headers.authorization?.replace(/^Bearer /, '')
    if (!token || !tokens.has(token) || !request.headers.cookie?.includes('session=s1')) {
      return json(response, 401, { error: 'not logged in' })
    }
    if (request.method === 'POST' && path === '/items') {
      const id = String(next++)
      items.set(id, (JSON.parse(body || '{}') as { name?: string }).name ?? '')
      return json(response, 201, { id }, { location: `/items/${id}` })
    }
    const id = /^\/items\/([^/]+)$/.exec(path)?.[1]
    if (id === undefined || !items.has(id)) return json(response, 404, { error: 'no such item' })
    if (request.method === 'GET') return json(response, 200, { id, name: items.get(id) })
    if (request.method === 'DELETE') {
      items.delete(id)
      response.writeHead(204).end()
      return
    }
    json(response, 405, { error: 'method not allowed' })
  })
  const port = await listenLocal(server)
  return { url: `http://127.0.0.1:${port}`, requests, items, close: () => closeServer(server) }
}
