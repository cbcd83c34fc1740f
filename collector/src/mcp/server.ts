import { RESOURCE_MIME_TYPE, registerAppResource } from '@modelcontextprotocol/ext-apps/server'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { registerGuardTools, type ToolContext } from './tools.ts'
import { WIDGETS, type WidgetName, widgetHtml } from './widgets.ts'

export const SERVER_INFO = { name: 'guard-monitoring', title: 'Guard monitoring', version: '1.0.0' }

export const INSTRUCTIONS =
  "Guard monitors websites (domains), services, devices and incidents. Start with get_dashboard_stats, then list_incidents or get_domains_status. Signed in, the tools see the user's organizations (narrow with organizationId); without sign-in only the public status pages. scan_dns and scan_ports run on Guard's probes and need sign-in."

/** One server per request: the transport is stateless, so nothing is shared between calls. */
export function createMonitoringMcpServer(context: Omit<ToolContext, 'signal'>): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
    instructions: INSTRUCTIONS,
  })
  registerGuardTools(server, context)
  for (const [name, widget] of Object.entries(WIDGETS) as Array<[WidgetName, (typeof WIDGETS)[WidgetName]]>) {
    registerAppResource(
      server,
      widget.title,
      widget.uri,
      { description: `Draws the result of ${widget.tool}.`, mimeType: RESOURCE_MIME_TYPE },
      async () => ({
        contents: [
          {
            uri: widget.uri,
            mimeType: RESOURCE_MIME_TYPE,
            text: await widgetHtml(name),
            // No external origin at all: the host's CSP for the frame allows nothing beyond it.
            _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
          },
        ],
      }),
    )
  }
  return server
}
