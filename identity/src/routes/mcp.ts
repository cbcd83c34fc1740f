import type { GuardFastify } from '@guard/shared'
import {
  jsonRpcRequest,
  jsonRpcResponse,
  originAllowed,
  readMessage,
  rpcError,
  serveStateless,
  takeMcpBodyAsText,
} from '@guard/shared/mcp'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { buildHandshake, handshakeSchema } from '../mcp/handshake.ts'
import { httpsOrigin, type ResourceDeps } from '../mcp/resources.ts'
import { createPlatformMcpServer } from '../mcp/server.ts'
import { baseUrl, type PlatformContext } from './context.ts'
import { problemResponses } from './schemas.ts'

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

  // Encapsulated, so malformed JSON here is JSON-RPC -32700, not the problem+json 400 every other route answers.
  app.register(async (mcp) => {
    takeMcpBodyAsText(mcp)
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
          const read = readMessage(request.body)
          if ('answer' in read) return reply.status(read.status).send(read.answer)
          await serveStateless(request, reply, createPlatformMcpServer(deps(request)), read.message)
        },
      )
    }
  })
}
