import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { type ResourceDeps, registerPlatformResources } from './resources.ts'
import { registerPlatformTools } from './tools.ts'

export const SERVER_INFO = { name: 'guard-platform', title: 'Guard platform', version: '1.0.0' }

export const INSTRUCTIONS =
  "Public, read-only facts about Guard: what it is, its products and plans, release notes and how to call its APIs. Start with platform_get_overview. For a user's own monitors use the monitoring MCP server at {guard_url}/mcp, which needs OAuth."

/** One server per request: the transport is stateless, so nothing is shared between calls. */
export function createPlatformMcpServer(deps: ResourceDeps): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    instructions: INSTRUCTIONS,
  })
  registerPlatformTools(server, deps)
  registerPlatformResources(server, deps)
  return server
}
