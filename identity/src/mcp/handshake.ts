import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { describePlatformResources, type ResourceDeps } from './resources.ts'
import { INSTRUCTIONS, SERVER_INFO } from './server.ts'
import { describePlatformTools } from './tools.ts'

export const handshakeSchema = z.object({
  protocolVersion: z.string(),
  capabilities: z.record(z.string(), z.unknown()),
  serverInfo: z.looseObject({ name: z.string(), version: z.string() }),
  resources: z
    .array(
      z.object({
        uri: z.string(),
        name: z.string(),
        mimeType: z.string(),
        title: z.string().optional(),
        description: z.string().optional(),
      }),
    )
    .min(1),
  instructions: z.string().optional(),
  transport: z.record(z.string(), z.unknown()).optional(),
  tools: z.array(z.record(z.string(), z.unknown())).optional(),
})

/** What a client learns before connecting: the same tools and resources the server lists. */
export function buildHandshake(deps: ResourceDeps): z.infer<typeof handshakeSchema> {
  return {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
    transport: {
      type: 'streamable-http',
      url: `${deps.baseUrl}/mcp`,
      alternateUrls: [`${deps.baseUrl}/.well-known/mcp`],
      stateless: true,
      authentication: 'none',
    },
    resources: describePlatformResources(deps),
    tools: describePlatformTools(),
  }
}
