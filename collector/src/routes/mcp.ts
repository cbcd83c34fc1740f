import { GuardError, type GuardFastify } from '@guard/shared'
import {
  jsonRpcRequest,
  jsonRpcResponse,
  originAllowed,
  readMessage,
  rpcError,
  serveStateless,
  takeMcpBodyAsText,
} from '@guard/shared/mcp'
import type { FastifyReply } from 'fastify'
import { z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { collectorPublicUrl } from '../env.ts'
import { createMcpAuthenticator, MCP_PATHS, MCP_SCOPES, type McpAuth } from '../mcp/auth.ts'
import { createMonitoringMcpServer } from '../mcp/server.ts'
import { toolScopes } from '../mcp/tools.ts'
import { chargeAnonymous, chargeCaller } from '../plugins/access.ts'
import { errorBody } from '../plugins/errors.ts'
import { errorSchema, rateLimitedSchema, unauthorizedSchema } from './common.ts'

/** RFC 9728 protected-resource metadata. */
export const protectedResourceMetadata = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()).optional(),
  scopes_supported: z.array(z.enum(MCP_SCOPES)),
  bearer_methods_supported: z.array(z.literal('header')),
  resource_name: z.string(),
  resource_documentation: z.string().optional(),
})

/** Where the metadata of the resource at `path` is: RFC 9728 inserts the well-known part before the path. */
const metadataPath = (path: string) => `/.well-known/oauth-protected-resource${path}`

/** A tools/call of a scan is a bulk operation for rate limits; every other message a read. */
function rateClassOf(message: unknown): 'read' | 'bulk' {
  const call = message as { method?: unknown; params?: { name?: unknown } } | null
  const name = call?.method === 'tools/call' ? call.params?.name : undefined
  return name === 'scan_dns' || name === 'scan_ports' ? 'bulk' : 'read'
}

/** The scope a tools/call needs that a user token lacks, if any. */
function missingScope(auth: McpAuth, message: unknown): string | undefined {
  if (auth.kind !== 'member' || !auth.scopes) return undefined
  const messages = Array.isArray(message) ? message : [message]
  for (const item of messages) {
    const call = item as { method?: unknown; params?: { name?: unknown } } | null
    if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') continue
    const needed = toolScopes.get(call.params.name)
    if (needed && !auth.scopes.includes(needed)) return needed
  }
  return undefined
}

/**
 * The monitoring MCP server on `POST /mcp` and `POST /api/mcp` (Streamable HTTP, stateless, JSON
 * answers), and its RFC 9728 protected-resource metadata. Authentication is optional: without a
 * token the tools read public status pages only. A bad token is 401 with a `WWW-Authenticate`
 * naming the metadata, so an assistant can discover identity and sign in.
 */
export function mcpRoutes(app: GuardFastify, ctx: CollectorContext): void {
  const authenticate = createMcpAuthenticator(ctx)
  const base = () => collectorPublicUrl(ctx.env)

  const metadataOf = (path: string) => ({
    resource: `${base()}${path}`,
    ...(ctx.env.GUARD_IDENTITY_URL ? { authorization_servers: [ctx.env.GUARD_IDENTITY_URL] } : {}),
    scopes_supported: [...MCP_SCOPES],
    bearer_methods_supported: ['header' as const],
    resource_name: 'Guard monitoring (MCP)',
    resource_documentation: `${base()}/openapi.json`,
  })
  for (const [path, resourcePath] of [
    [metadataPath(''), '/mcp'],
    ...MCP_PATHS.map((mcpPath) => [metadataPath(mcpPath), mcpPath] as const),
  ] as const) {
    app.get(
      path,
      {
        schema: {
          description: `OAuth protected-resource metadata (RFC 9728) of the MCP resource ${resourcePath}: which authorization server issues its tokens and the scopes it knows.`,
          tags: ['mcp'],
          security: [],
          response: { 200: protectedResourceMetadata, 429: rateLimitedSchema },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300')
        return metadataOf(resourcePath)
      },
    )
  }

  const challenge = (reply: FastifyReply, path: string, extra = '') =>
    reply.header(
      'WWW-Authenticate',
      `Bearer resource_metadata="${base()}${metadataPath(path)}"${extra ? `, ${extra}` : ''}`,
    )

  app.register(async (mcp) => {
    takeMcpBodyAsText(mcp, { bodyLimit: 1024 * 1024 })
    for (const path of MCP_PATHS) {
      mcp.post(
        path,
        {
          config: { selfLimited: true },
          schema: {
            summary: 'Monitoring MCP endpoint (JSON-RPC 2.0, Streamable HTTP, stateless, JSON responses)',
            description:
              'Tools get_dashboard_stats, list_incidents, get_domains_status, scan_dns, scan_ports, get_devices_status, get_heartbeats_status, list_groups, get_dependencies, list_slos; widget resources ui://guard/dashboard, ui://guard/incidents, ui://guard/domains, ui://guard/heartbeats. Bearer optional: an API key, or a user token (for the monitoring API or this resource) with scope read. A notification is answered 202 with no body.',
            tags: ['mcp'],
            security: [{}, { bearer: [] }],
            body: jsonRpcRequest,
            response: {
              200: jsonRpcResponse,
              202: z.undefined().describe('Notification accepted'),
              400: z
                .union([jsonRpcResponse, errorSchema])
                .describe('Malformed JSON (-32700), not a JSON-RPC message, or control characters in the request'),
              401: unauthorizedSchema.describe('Invalid token; WWW-Authenticate names the resource metadata'),
              403: z
                .union([jsonRpcResponse, errorSchema])
                .describe('Origin not allowed, or the token lacks the scope (WWW-Authenticate: insufficient_scope)'),
              413: errorSchema.describe('Body over 1 MiB'),
              429: rateLimitedSchema,
              503: errorSchema,
            },
          },
        },
        async (request, reply) => {
          if (
            !originAllowed(request.headers.origin, {
              publicUrl: base(),
              origins: ctx.env.GUARD_MCP_ALLOWED_ORIGINS,
            })
          ) {
            return reply.status(403).send(rpcError(-32000, 'Forbidden: Origin not allowed'))
          }
          let auth: McpAuth
          try {
            auth = await authenticate(request.headers.authorization)
          } catch (error) {
            if (error instanceof GuardError && error.code === 'UNAUTHORIZED') {
              challenge(reply, path, 'error="invalid_token"')
              return reply.status(401).send(errorBody('UNAUTHORIZED', error.message))
            }
            if (error instanceof GuardError && error.code === 'FORBIDDEN') {
              // A token without organizations cannot be scoped to any: ask for them.
              challenge(reply, path, 'error="insufficient_scope", scope="read organizations"')
              return reply.status(403).send(errorBody('FORBIDDEN', error.message))
            }
            throw error
          }
          const read = readMessage(request.body)
          if ('answer' in read) return reply.status(read.status).send(read.answer)
          const { message } = read
          const lacking = missingScope(auth, message)
          if (lacking) {
            challenge(reply, path, `error="insufficient_scope", scope="${lacking}"`)
            return reply
              .status(403)
              .send(errorBody('FORBIDDEN', `The token lacks the ${lacking} scope this tool needs`))
          }
          if (auth.kind === 'member') await chargeCaller(ctx, reply, auth.principal, rateClassOf(message))
          else await chargeAnonymous(ctx, request, reply)

          await serveStateless(request, reply, createMonitoringMcpServer({ ctx, auth }), message)
        },
      )
      // Stateless: no server-to-client stream to open and no session to end.
      for (const method of ['GET', 'DELETE'] as const) {
        mcp.route({
          method,
          url: path,
          config: { selfLimited: true },
          schema: { hide: true },
          handler: async (_request, reply) =>
            reply
              .status(405)
              .header('allow', 'POST')
              .send(rpcError(-32000, 'Method not allowed: this MCP server is stateless, use POST')),
        })
      }
    }
  })
}
