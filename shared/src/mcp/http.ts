import type { IncomingMessage } from 'node:http'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { GuardFastify } from '../http/fastify.ts'
import { decodeUtf8, loneSurrogateAt } from '../http/unicode.ts'
import { invalidParams } from './params.ts'

const jsonRpcId = z.union([z.string(), z.int(), z.null()])

/** What an MCP endpoint documents as its request body (the SDK does the validating). */
export const jsonRpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string(),
  id: jsonRpcId.optional(),
  params: z.record(z.string(), z.unknown()).optional(),
})

export const jsonRpcResponse = z.union([
  z.object({ jsonrpc: z.literal('2.0'), id: jsonRpcId, result: z.record(z.string(), z.unknown()) }),
  z.object({
    jsonrpc: z.literal('2.0'),
    id: jsonRpcId,
    error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }),
  }),
])

type JsonRpcError = { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } }

export const rpcError = (code: number, message: string): JsonRpcError => ({
  jsonrpc: '2.0',
  id: null,
  error: { code, message },
})

/**
 * For an encapsulated MCP plugin: the body arrives as text, so malformed JSON becomes JSON-RPC
 * -32700 from `readMessage` instead of the process's usual 400, and the route schema only
 * documents the request, because the SDK validates it and answers in JSON-RPC terms. Bytes that
 * are not UTF-8 get the process's 400, like a control character does.
 */
export function takeMcpBodyAsText(mcp: GuardFastify, options: { bodyLimit?: number } = {}): void {
  mcp.removeAllContentTypeParsers()
  mcp.addContentTypeParser(
    '*',
    { parseAs: 'buffer', ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }) },
    (_request, body, done) => done(null, decodeUtf8(body as Buffer, 'Request body')),
  )
  mcp.setValidatorCompiler(() => (value) => ({ value }))
}

/** The JSON-RPC message in a text body, or the answer that refuses it (bad JSON, or params failing the SDK's schema). */
export function readMessage(body: unknown): { message: unknown } | { status: 200 | 400; answer: JsonRpcError } {
  let message: unknown
  try {
    message = JSON.parse(String(body))
  } catch {
    return { status: 400, answer: rpcError(-32700, 'Parse error: the body is not valid JSON') }
  }
  // JSON.parse turns a `\ud83d` escape into a lone surrogate, which no tool may store or send on.
  const lone = loneSurrogateAt(message, 'message')
  if (lone) return { status: 400, answer: rpcError(-32700, `Parse error: ${lone} contains a lone surrogate`) }
  const refused = invalidParams(message)
  return refused ? { status: 200, answer: refused } : { message }
}

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

/**
 * Answers one message with `server` over a stateless Streamable HTTP transport with JSON answers
 * (no session, no server-to-client stream), closing both when the connection ends.
 */
export async function serveStateless(
  request: FastifyRequest,
  reply: FastifyReply,
  server: McpServer,
  message: unknown,
): Promise<void> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  // Headers set so far (rate limits) travel with the SDK's answer.
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value)
  }
  reply.hijack()
  reply.raw.on('close', () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  acceptBoth(request.raw)
  await transport.handleRequest(request.raw, reply.raw, message)
}
