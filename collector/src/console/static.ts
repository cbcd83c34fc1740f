import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { errorBody } from '../plugins/errors.ts'
import { bodyFor, compressBody, type EncodedBody, encodeBody } from '../services/encoded-body.ts'

/** Where bin/console-build.mjs puts the Vite build (not committed). */
export const CONSOLE_DIST = fileURLToPath(new URL('../../console/dist/', import.meta.url))

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
}

/**
 * The console's own scripts and styles only; data comes from the same origin's API, and nothing
 * is loaded from anywhere else (no CDN, no fonts). Forms may go to identity: the sign-out post is
 * redirected to its end-session endpoint.
 */
export const consoleContentSecurityPolicy = (identityUrl: string | undefined) =>
  `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'${identityUrl ? ` ${new URL(identityUrl).origin}` : ''}; frame-ancestors 'none'; object-src 'none'`

/** Paths that belong to the API and its neighbours: never answered with the console's page. */
const NOT_CONSOLE = /^\/(api|auth|agent|mcp|status|status-assets|metrics|openapi\.json|\.well-known)(\/|$|\?)/

interface Asset {
  type: string
  /** Text files get brotli and gzip copies, made once off the event loop after start. */
  body: EncodedBody | Buffer
  immutable: boolean
}

function readBuild(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>()
  if (!existsSync(join(dir, 'index.html'))) return assets
  const walk = (current: string) => {
    for (const name of readdirSync(current)) {
      if (name.startsWith('.')) continue
      const file = join(current, name)
      if (statSync(file).isDirectory()) walk(file)
      else {
        const path = `/${relative(dir, file).split(sep).join('/')}`
        const bytes = readFileSync(file)
        const type = TYPES[extname(name)] ?? 'application/octet-stream'
        const body = /^(text\/|application\/json|image\/svg)/.test(type) ? encodeBody(bytes) : bytes
        if (!Buffer.isBuffer(body)) void compressBody(body)
        assets.set(path, {
          type,
          body,
          // Vite names built files after their content hash.
          immutable: path.startsWith('/assets/'),
        })
      }
    }
  }
  walk(dir)
  return assets
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guard</title></head>
<body><main><h1>The web console is not built</h1><p>Run <code>npm run build:console</code> (or restart
<code>guard start</code>, which builds it) and reload this page. The API is served under <code>/api</code>.</p></main></body></html>`

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset, csp: string) {
  reply.header('Cache-Control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
  reply.header('X-Content-Type-Options', 'nosniff')
  if (asset.type.startsWith('text/html')) {
    reply.header('Content-Security-Policy', csp)
    reply.header('Referrer-Policy', 'same-origin')
  }
  if (Buffer.isBuffer(asset.body)) return reply.type(asset.type).send(asset.body)
  reply.header('Vary', 'Accept-Encoding')
  const { encoding, bytes } = bodyFor(asset.body, request.headers['accept-encoding'])
  if (encoding) reply.header('Content-Encoding', encoding)
  return reply.type(asset.type).send(bytes)
}

const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html')

/**
 * Serves the console's build at `/`, read into memory once (it is small), and its page for every
 * other browser navigation outside the API (the console routes in the browser). Not in the
 * OpenAPI document: these are files, not API.
 */
export function consoleStaticRoutes(
  app: FastifyInstance,
  options: { identityUrl: string | undefined; dir?: string } = { identityUrl: undefined },
): void {
  const assets = readBuild(options.dir ?? CONSOLE_DIST)
  const csp = consoleContentSecurityPolicy(options.identityUrl)
  const index = assets.get('/index.html')
  const page = (request: FastifyRequest, reply: FastifyReply) =>
    index
      ? sendAsset(request, reply, index, csp)
      : reply.status(503).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(NOT_BUILT)
  const config = { staticFile: true }
  app.get('/', { schema: { hide: true }, config }, async (request, reply) => page(request, reply))
  app.get('/assets/*', { schema: { hide: true }, config }, async (request, reply) => {
    const asset = assets.get(request.url.split('?')[0]!)
    if (!asset) return reply.status(404).send(errorBody('NOT_FOUND', `No file ${request.url.split('?')[0]}`))
    return sendAsset(request, reply, asset, csp)
  })
  // Browser navigations to console paths count per IP like any public request (unknown paths too).
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.url.split('?')[0]!
    if (NOT_CONSOLE.test(path) || !wantsHtml(request)) {
      return reply.status(404).send(errorBody('NOT_FOUND', `No route for ${request.method} ${path}`))
    }
    return page(request, reply)
  })
}
