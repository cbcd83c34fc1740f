import type { IncomingMessage } from 'node:http'
import type { GuardFastify } from '@guard/shared'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { buildHandshake, handshakeSchema } from '../mcp/handshake.ts'
import { originAllowed } from '../mcp/origin.ts'
import { invalidParams } from '../mcp/params.ts'
import { httpsOrigin, type ResourceDeps } from '../mcp/resources.ts'
import { createPlatformMcpServer } from '../mcp/server.ts'
import { baseUrl, type PlatformContext } from './context.ts'
import { problemResponses } from './schemas.ts'

const jsonRpcId = z.union([z.string(), z.int(), z.null()])

const jsonRpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  id: jsonRpcId.optional(),
  params: z.record(z.string(), z.unknown()).optional(),
})

const jsonRpcResponse = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: jsonRpcId, result: z.record(z.string(), z.unknown()) }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: jsonRpcId,
    error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }),
  }),
])

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0' as const, id: null, error: { code, message } })

/** The MCP spec makes clients accept both; answers here are always JSON, so a plain JSON client is served too. */
function acceptBoth(raw: IncomingMessage): void {
  const accept = raw.headers.accept ?? ''
  if (accept.includes('application/json') && accept.includes('text/event-stream')) return
  const value = 'application/json, text/event-stream'
  raw.headers.accept = value
  // The SDK rebuilds headers from rawHeaders, so both views must agree.
  const kept: string[] = []
  for (let i = 0; i < raw.rawHeaders.length; i += 2) {
    if (raw.rawHeaders[i]?.toLowerCase() !== 'accept') kept.push(raw.rawHeaders[i]!, raw.rawHeaders[i + 1]!)
  }
  raw.rawHeaders.splice(0, raw.rawHeaders.length, ...kept, 'Accept', value)
}

export function mcpRoutes(app: GuardFastify, ctx: PlatformContext): void {
  const deps = (request: FastifyRequest): ResourceDeps => ({
    sql: ctx.sql,
    log: ctx.log,
    baseUrl: baseUrl(ctx, request),
    httpsOrigin: httpsOrigin(ctx.publicUrl),
    deprecations: ctx.deprecations,
    openApi: () => app.swagger(),
  })

  app.get(
    '/.well-known/mcp',
    {
      schema: {
        summary: 'MCP handshake: protocol version, capabilities, tools and resources',
        tags: ['mcp'],
        response: { 200: handshakeSchema, ...problemResponses(500) },
      },
    },
    async (request) => buildHandshake(deps(request)),
  )

  // Encapsulated: these routes take the body as text, so malformed JSON becomes JSON-RPC -32700,
  // not the problem+json 400 every other route answers.
  app.register(async (mcp) => {
    mcp.removeAllContentTypeParsers()
    mcp.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))
    // The schema documents the request; the SDK validates it and answers in JSON-RPC terms.
    mcp.setValidatorCompiler(() => (value) => ({ value }))
    for (const path of ['/mcp', '/.well-known/mcp']) {
      mcp.post(
        path,
        {
          schema: {
            summary: 'MCP JSON-RPC 2.0 endpoint (Streamable HTTP, stateless, JSON responses)',
            description:
              'Methods: initialize, ping, tools/list, tools/call, resources/list, resources/read. A notification is answered 202 with no body.',
            tags: ['mcp'],
            body: jsonRpcRequest,
            response: {
              200: jsonRpcResponse,
              202: z.undefined().describe('Notification accepted'),
              400: jsonRpcResponse.describe('Malformed JSON (-32700) or not a JSON-RPC message'),
              403: jsonRpcResponse.describe('Origin not allowed (DNS rebinding protection)'),
              415: jsonRpcResponse.describe('Content-Type is not application/json'),
            },
          },
        },
        async (request, reply) => {
          if (!originAllowed(request.headers.origin, { publicUrl: ctx.publicUrl, origins: ctx.allowedOrigins })) {
            return reply.status(403).send(rpcError(-32000, 'Forbidden: Origin not allowed'))
          }
          let message: unknown
          try {
            message = JSON.parse(String(request.body))
          } catch {
            return reply.status(400).send(rpcError(-32700, 'Parse error: the body is not valid JSON'))
          }
          const refused = invalidParams(message)
          if (refused) return reply.status(200).send(refused)
          const server = createPlatformMcpServer(deps(request))
          const transport = new StreamableHTTPServerTransport({
            sessionIdGenerator: undefined,
            enableJsonResponse: true,
          })
          reply.hijack()
          reply.raw.on('close', () => {
            void transport.close()
            void server.close()
          })
          await server.connect(transport)
          acceptBoth(request.raw)
          await transport.handleRequest(request.raw, reply.raw, message)
        },
      )
    }
  })
}
