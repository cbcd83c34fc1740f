import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'

const REQUEST_SCHEMAS = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
} as const

/**
 * JSON-RPC says invalid params are -32602, but the SDK reports a request that fails its schema as
 * -32603 (internal error), which tells a client to retry instead of fixing its call. Checking the
 * params against the SDK's own schemas first gives the right code. Returns the error, if any.
 */
export function invalidParams(
  message: unknown,
): { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string } } | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined
  const { method, id } = message as { method?: unknown; id?: unknown }
  if (typeof id !== 'string' && typeof id !== 'number') return undefined
  const schema = typeof method === 'string' ? REQUEST_SCHEMAS[method as keyof typeof REQUEST_SCHEMAS] : undefined
  if (!schema) return undefined
  const parsed = schema.safeParse(message)
  if (parsed.success) return undefined
  const detail = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')
  return { jsonrpc: '2.0', id, error: { code: -32602, message: `Invalid params: ${detail}` } }
}
