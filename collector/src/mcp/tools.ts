import { GuardError } from '@guard/shared'
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { type ZodObject, type ZodRawShape, z } from 'zod'
import type { CollectorContext } from '../context.ts'
import { hasPermission } from '../services/access/permissions.ts'
import { audienceOf } from '../services/assistant/audience.ts'
import { listAssistantIncidents } from '../services/assistant/list-incidents.ts'
import { readAssistantDashboard } from '../services/assistant/read-dashboard.ts'
import { readDevicesStatus } from '../services/assistant/read-devices-status.ts'
import { readDomainsStatus } from '../services/assistant/read-domains-status.ts'
import { readHeartbeatsStatus } from '../services/assistant/read-heartbeats-status.ts'
import {
  devicesInput,
  devicesStatusResult,
  domainsStatusResult,
  heartbeatsStatusResult,
  incidentsInput,
  incidentsResult,
  organizationFilter,
} from '../services/assistant/schemas.ts'
import { dashboardStats } from '../services/dashboard/stats.ts'
import { getDependencies } from '../services/dependencies/get.ts'
import { dependenciesView } from '../services/dependencies/schemas.ts'
import { groupsResult, listGroupsForAudience } from '../services/groups/list-for-audience.ts'
import { acknowledgeIncident } from '../services/incidents/acknowledge.ts'
import { incidentView } from '../services/incidents/schemas.ts'
import { serviceProtocol } from '../services/monitors/schemas.ts'
import { createService } from '../services/services/create.ts'
import { getService } from '../services/services/get.ts'
import { listProtocols } from '../services/services/protocols.ts'
import { serviceView } from '../services/services/schemas.ts'
import { updateService } from '../services/services/update.ts'
import { getSlo } from '../services/slos/get.ts'
import { listSlos } from '../services/slos/list.ts'
import { sloStatus, sloView } from '../services/slos/schemas.ts'
import { listSyntheticRuns } from '../services/synthetics/list-runs.ts'
import { runSynthetic } from '../services/synthetics/run.ts'
import { syntheticRunView } from '../services/synthetics/schemas.ts'
import { tagsArgument } from '../services/tags/schemas.ts'
import { lookupDns } from '../services/toolbox/lookup-dns.ts'
import { scanPorts } from '../services/toolbox/scan-ports.ts'
import { dnsLookupResult } from '../services/toolbox/schemas.ts'
import type { McpAuth, McpScope } from './auth.ts'
import { WIDGETS } from './widgets.ts'

export interface ToolContext {
  ctx: CollectorContext
  auth: McpAuth
  signal: AbortSignal
}

interface GuardTool<I extends ZodRawShape, O extends ZodObject> {
  name: string
  title: string
  description: string
  input: I
  output: O
  /** What an assistant's resource token must carry to call it (README "MCP"). */
  scope: McpScope
  annotations: ToolAnnotations
  widget?: keyof typeof WIDGETS
  /** One sentence for clients that only read text. */
  summary(result: z.infer<O>): string
  run(input: z.infer<ZodObject<I>>, tool: ToolContext): Promise<z.infer<O>>
}

const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
}
/** Scans reach hosts outside Guard: open world, and not idempotent (a port may open between two calls). */
const SCAN: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true }

/** Writes a monitor: not read-only, not idempotent (a create makes another each time). */
const WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
}

const tool = <I extends ZodRawShape, O extends ZodObject>(definition: GuardTool<I, O>) => definition

/** The summaries' figures: "no" rather than "0 %" or "0 ms" while nothing has been checked. */
const percentText = (value: number | null) => (value === null ? 'no' : `${value} %`)
const msText = (value: number | null) => (value === null ? 'no' : `${value} ms`)

const member = (tool: ToolContext) => (tool.auth.kind === 'member' ? tool.auth.member : undefined)

/** Scans make probes connect to a target: only for someone who signed in, never anonymously. */
function signedIn(tool: ToolContext) {
  if (tool.auth.kind !== 'member') {
    throw new GuardError(
      'UNAUTHORIZED',
      'Scans run only for a signed-in caller: connect with OAuth, an API key or a user token',
    )
  }
  return tool.auth.principal
}

/** A write needs a signed-in caller whose role (and token) grant services:write, as on the REST API. */
function writer(
  tool: ToolContext,
  permission: 'services:write' | 'incidents:write' | 'synthetics:write' | 'synthetics:read',
) {
  const caller = signedIn(tool)
  if (!hasPermission(caller.permissions, permission)) {
    throw new GuardError('FORBIDDEN', `Missing permission ${permission}`)
  }
  return caller
}
const serviceWriter = (tool: ToolContext) => writer(tool, 'services:write')

/** Every protocol and what its protocolConfig takes, for the tools' descriptions. */
const protocolGuide = () =>
  listProtocols()
    .map((protocol) => {
      const options = Object.keys((protocol.options.properties as Record<string, unknown> | undefined) ?? {})
      const secrets = protocol.secretFields.length ? `; secret: ${protocol.secretFields.join(', ')}` : ''
      return `${protocol.kind} (${protocol.label}): ${options.join(', ') || 'no options'}${secrets}`
    })
    .join('\n')

const serviceFields = {
  checkInterval: z.number().int().min(5).max(86_400).optional().describe('Seconds between checks; default 60'),
  timeout: z.number().int().min(1).max(300).optional().describe('Seconds a check may take, below the interval'),
  enabled: z.boolean().optional(),
  locations: z.array(z.string()).max(50).optional().describe('Probe location codes; default the configured ones'),
}
/** An SLO with the figures that say how it is doing now; the burn-down stays on GET /api/slos/{id}. */
const slosResult = z.object({
  slos: z.array(
    sloView.extend(
      sloStatus.pick({
        sli: true,
        budgetMinutes: true,
        remainingMinutes: true,
        remainingPercent: true,
        burnRates: true,
      }).shape,
    ),
  ),
})

const protocolConfigArgument = z
  .record(z.string(), z.unknown())
  .describe(
    'host, port and the options of the protocol (GET /api/protocols has each one as JSON Schema); secret fields are write-only',
  )

/** The tools: each one adapter over the services the REST routes use. */
export const guardTools = [
  tool({
    name: 'get_dashboard_stats',
    title: 'Dashboard statistics',
    description:
      "Counts of domains (up, down, 24-hour uptime), devices (online, offline), services and heartbeats (up, down) and open incidents, over the caller's organizations or the one named. Without sign-in: what the public status pages show.",
    input: organizationFilter,
    output: dashboardStats,
    scope: 'read',
    annotations: READ_ONLY,
    widget: 'dashboard',
    summary: (stats) =>
      `Domains ${stats.domains.up}/${stats.domains.total} up (${percentText(stats.domains.uptime)} uptime), services ${stats.services.up}/${stats.services.total} up, heartbeats ${stats.heartbeats.up}/${stats.heartbeats.total} up, devices ${stats.devices.online}/${stats.devices.total} online, ${stats.incidents.active} open incidents (${stats.incidents.critical} critical).`,
    run: (input, tool) =>
      readAssistantDashboard({ ctx: tool.ctx, audience: audienceOf(member(tool), input.organizationId) }),
  }),
  tool({
    name: 'list_incidents',
    title: 'Incidents',
    description:
      'Incidents newest first, filtered by status (open, acknowledged, investigating, identified, monitoring, resolved) and severity (low, medium, high, critical), with the count of open and critical ones. Without sign-in: the incidents public status pages show.',
    input: incidentsInput.shape,
    output: incidentsResult,
    scope: 'read',
    annotations: READ_ONLY,
    widget: 'incidents',
    summary: (result) =>
      `${result.total} incidents match; ${result.summary.open} open, ${result.summary.critical} critical.${result.incidents
        .slice(0, 5)
        .map((incident) => `\n- [${incident.severity}/${incident.status}] ${incident.title} (${incident.detectedAt})`)
        .join('')}`,
    run: (input, tool) =>
      listAssistantIncidents({
        ctx: tool.ctx,
        audience: audienceOf(member(tool), input.organizationId),
        input,
      }),
  }),
  tool({
    name: 'list_groups',
    title: 'Groups',
    description:
      'The groups of monitors and devices as a tree (at most three levels), each with the state its rule derives from its members (all: up only when every member is; any: down when one is; percent: down from that share down), and a count per state. Requires sign-in.',
    input: organizationFilter,
    output: groupsResult,
    scope: 'read',
    annotations: READ_ONLY,
    summary: (result) =>
      `${result.summary.total} groups: ${result.summary.up} up, ${result.summary.degraded} degraded, ${result.summary.down} down.${result.groups
        .map((group) => `\n- ${group.name}: ${group.state}`)
        .join('')}`,
    run: (input, tool) =>
      listGroupsForAudience({ ctx: tool.ctx, audience: audienceOf(member(tool), input.organizationId) }),
  }),
  tool({
    name: 'get_dependencies',
    title: 'Dependencies of a monitor',
    description:
      'What a domain, service or heartbeat depends on, what depends on it, and, while a parent is down, the parent and incident its failure is counted under instead of an incident of its own (suppressedBy), as GET /api/monitors/{id}/dependencies. Requires sign-in.',
    input: { monitorId: z.string().min(1).max(64).describe('The monitor id (the status tools list them)') },
    output: dependenciesView,
    scope: 'read',
    annotations: READ_ONLY,
    summary: (result) =>
      `Depends on ${result.dependsOn.length} monitors; ${result.dependentsCount} depend on it.${result.suppressedBy ? ` Its failure is suppressed: ${result.suppressedBy.monitorId} is down.` : ''}`,
    run: ({ monitorId }, tool) => getDependencies({ ctx: tool.ctx, caller: signedIn(tool), input: { id: monitorId } }),
  }),
  tool({
    name: 'list_slos',
    title: 'SLOs and error budgets',
    description:
      'Every SLO of the organization with its objective, SLI (percent of good minutes in the window so far), error budget left (minutes and percent, negative once spent), burn rates over 1 h, 6 h, 24 h and 3 d (1 spends the budget exactly by the window’s end) and the burn alert firing, if any, as GET /api/slos/{id}. Requires sign-in.',
    input: organizationFilter,
    output: slosResult,
    scope: 'read',
    annotations: READ_ONLY,
    summary: (result) =>
      `${result.slos.length} SLOs.${result.slos
        .map(
          (slo) =>
            `\n- ${slo.name}: objective ${slo.objective} %, SLI ${percentText(slo.sli)}, ${slo.remainingPercent} % of the budget left, 1 h burn rate ${slo.burnRates['1h'] ?? 'unknown'}${slo.burning ? `, burning (${slo.burning.severity})` : ''}`,
        )
        .join('')}`,
    run: async (input, tool) => {
      const caller = signedIn(tool)
      const slos = await listSlos({ ctx: tool.ctx, caller, input })
      const withStatus = []
      // One at a time: each reads its window's results, and an organization may have many SLOs.
      for (const slo of slos) {
        const { status, ...view } = await getSlo({ ctx: tool.ctx, caller, input: { id: slo.id } })
        const { sli, budgetMinutes, remainingMinutes, remainingPercent, burnRates } = status
        withStatus.push({ ...view, sli, budgetMinutes, remainingMinutes, remainingPercent, burnRates })
      }
      return { slos: withStatus }
    },
  }),
  tool({
    name: 'get_domains_status',
    title: 'Domains status',
    description:
      "Every monitored domain's status with 24-hour response time and uptime, and a summary. Without sign-in: the domains public status pages show.",
    input: { ...organizationFilter, tags: tagsArgument },
    output: domainsStatusResult,
    scope: 'read',
    annotations: READ_ONLY,
    widget: 'domains',
    summary: (result) =>
      `${result.summary.up}/${result.summary.total} domains up, ${result.summary.down} down, ${percentText(result.summary.uptime)} uptime, ${msText(result.summary.avgResponseTime)} average.${result.domains
        .filter((domain) => domain.status === 'down')
        .map((domain) => `\n- down: ${domain.name}`)
        .join('')}`,
    run: (input, tool) =>
      readDomainsStatus({ ctx: tool.ctx, audience: audienceOf(member(tool), input.organizationId), tags: input.tags }),
  }),
  tool({
    name: 'scan_dns',
    title: 'DNS lookup',
    description:
      'Looks up the common DNS records (A, AAAA, CNAME, MX, TXT, NS, SOA, CAA) of a domain from a Guard probe. Requires sign-in.',
    input: { domain: z.string().trim().min(1).max(253).describe('The domain to look up') },
    output: dnsLookupResult,
    scope: 'read',
    annotations: SCAN,
    summary: (result) =>
      `${result.total} records for ${result.domain}.${result.records.map((record) => `\n- ${record.type} ${record.value}`).join('')}`,
    run: (input, tool) =>
      lookupDns({ ctx: tool.ctx, caller: signedIn(tool), input: { domain: input.domain, record_type: 'ANY' } }),
  }),
  tool({
    name: 'scan_ports',
    title: 'Port scan',
    description:
      'TCP connect scan of a host from a Guard probe: the ~100 most used ports, or the ports given (comma-separated, or a range such as 8000-8100). Public addresses only. Requires sign-in.',
    input: {
      host: z.string().trim().min(1).max(253).describe('Host name or IP address'),
      ports: z.string().trim().max(2000).optional().describe('e.g. "22,80,443" or "1-1024"'),
    },
    output: z.object({
      host: z.string(),
      openPorts: z.array(z.number().int()),
      totalScanned: z.number().int(),
    }),
    scope: 'read',
    annotations: SCAN,
    summary: (result) =>
      `${result.openPorts.length} of ${result.totalScanned} ports open on ${result.host}${result.openPorts.length ? `: ${result.openPorts.join(', ')}` : ''}.`,
    run: async (input, tool) => {
      const results = await scanPorts({
        ctx: tool.ctx,
        caller: signedIn(tool),
        input: input.ports ? { target: input.host, ports: input.ports } : { target: input.host, scanType: 'quick' },
        signal: tool.signal,
      })
      return { host: input.host, ...results }
    },
  }),
  tool({
    name: 'get_devices_status',
    title: 'Devices status',
    description:
      "An organization's devices (servers running the Guard agent): online or not, health and last contact. Without sign-in: the devices its public status pages show.",
    input: { ...devicesInput.shape, tags: tagsArgument },
    output: devicesStatusResult,
    scope: 'read',
    annotations: READ_ONLY,
    summary: (result) =>
      `${result.online}/${result.total} devices online, ${result.offline} offline.${result.devices
        .filter((device) => device.status !== 'up')
        .map((device) => `\n- ${device.status}: ${device.name}`)
        .join('')}`,
    run: (input, tool) =>
      readDevicesStatus({ ctx: tool.ctx, audience: audienceOf(member(tool), input.organizationId), tags: input.tags }),
  }),
  tool({
    name: 'get_heartbeats_status',
    title: 'Heartbeats status',
    description:
      "An organization's heartbeat monitors (cron jobs, backups, workers that ping Guard): up or down, why (missed, failed, exit_code, too_long), last ping and next expected time. Without sign-in: the heartbeats its public status pages show.",
    input: { ...organizationFilter, tags: tagsArgument },
    output: heartbeatsStatusResult,
    scope: 'read',
    annotations: READ_ONLY,
    widget: 'heartbeats',
    summary: (result) =>
      `${result.up}/${result.total} heartbeats up, ${result.down} down.${result.heartbeats
        .filter((heartbeat) => heartbeat.status === 'down')
        .map((heartbeat) => `\n- down (${heartbeat.reason ?? 'unknown'}): ${heartbeat.name}`)
        .join('')}`,
    run: (input, tool) =>
      readHeartbeatsStatus({
        ctx: tool.ctx,
        audience: audienceOf(member(tool), input.organizationId),
        tags: input.tags,
      }),
  }),
  tool({
    name: 'create_service',
    title: 'Create a service monitor',
    description: `Creates a service monitor, as POST /api/services: a protocol and its protocolConfig. Requires sign-in, the write scope and services:write. Secrets are sealed and never returned (secretsSet). Protocols and their options:\n${protocolGuide()}`,
    input: {
      organizationId: z.string().max(64).optional().describe("One of the caller's organizations; default its first"),
      name: z.string().trim().min(1).max(200),
      protocol: serviceProtocol,
      protocolConfig: protocolConfigArgument,
      ...serviceFields,
    },
    output: serviceView,
    scope: 'write',
    annotations: WRITE,
    summary: (service) => `Created the ${service.protocol} service ${service.name} (${service.id}).`,
    run: async ({ organizationId, ...input }, tool) => {
      const caller = serviceWriter(tool)
      const created = await createService({
        ctx: tool.ctx,
        caller,
        input: { ...input, organizationId } as Parameters<typeof createService>[0]['input'],
      })
      return getService(tool.ctx, caller, created.id)
    },
  }),
  tool({
    name: 'update_service',
    title: 'Update a service monitor',
    description: `Changes the given fields of a service monitor, as PUT /api/services/{id}; a protocolConfig replaces the stored one whole, secrets left out are kept. Requires sign-in, the write scope and services:write. Protocols and their options:\n${protocolGuide()}`,
    input: {
      id: z.string().min(1).max(64),
      name: z.string().trim().min(1).max(200).optional(),
      protocol: serviceProtocol.optional(),
      protocolConfig: protocolConfigArgument.optional(),
      ...serviceFields,
    },
    output: serviceView,
    scope: 'write',
    annotations: WRITE,
    summary: (service) => `Updated the ${service.protocol} service ${service.name} (${service.id}).`,
    run: async (input, tool) => {
      const caller = serviceWriter(tool)
      await updateService({ ctx: tool.ctx, caller, input: input as Parameters<typeof updateService>[0]['input'] })
      return getService(tool.ctx, caller, input.id)
    },
  }),
  tool({
    name: 'run_synthetic_check',
    title: 'Run a synthetic check now',
    description:
      'Runs a synthetic check now on a probe of the chosen location (default any), as POST /api/synthetics/{id}/run, and returns the run: status, the failing step by name, each step with its status code and timings; for a browser check (run only by probes with a browser) `browser` holds its steps with durations, Web Vitals per page, console errors, failed requests and the URLs of its screenshot and trace. Secrets are never shown. Requires sign-in, the write scope and synthetics:write.',
    input: {
      id: z.string().min(1).max(64).describe('The synthetic check id (GET /api/synthetics lists them)'),
      location: z.string().max(32).optional().describe('A probe location code such as fra; default any probe'),
    },
    output: syntheticRunView,
    scope: 'write',
    annotations: WRITE,
    summary: (run) =>
      `${run.status} from ${run.location} in ${run.responseTimeMs} ms${run.error ? `: ${run.error}` : ''} (${run.browser ? run.browser.steps.length : run.steps.length} steps)${run.browser?.artifacts.screenshot ? `; screenshot ${run.browser.artifacts.screenshot}` : ''}.`,
    run: ({ id, location }, tool) =>
      runSynthetic({
        ctx: tool.ctx,
        caller: writer(tool, 'synthetics:write'),
        input: { id, ...(location ? { location } : {}) },
      }),
  }),
  tool({
    name: 'get_synthetic_runs',
    title: 'Last runs of a synthetic check',
    description:
      'The last runs of a synthetic check, newest first, as GET /api/synthetics/{id}/runs: status, location, the failing step and each step with its timings; browser runs also carry Web Vitals, console errors, failed requests and artifact URLs. Requires sign-in and synthetics:read.',
    input: {
      id: z.string().min(1).max(64).describe('The synthetic check id'),
      limit: z.number().int().min(1).max(100).optional().describe('How many runs; default 20'),
    },
    output: z.object({ runs: z.array(syntheticRunView) }),
    scope: 'read',
    annotations: READ_ONLY,
    summary: ({ runs }) =>
      runs.length === 0
        ? 'No runs yet.'
        : `${runs.length} runs; the newest is ${runs[0]!.status} from ${runs[0]!.location}.`,
    run: async ({ id, limit }, tool) => ({
      runs: await listSyntheticRuns({
        ctx: tool.ctx,
        caller: writer(tool, 'synthetics:read'),
        input: { id, ...(limit ? { limit } : {}) },
      }),
    }),
  }),
  tool({
    name: 'acknowledge_incident',
    title: 'Acknowledge an incident',
    description:
      'Says someone is on an open incident, as POST /api/incidents/{id}/acknowledge: its escalation stops (reminders go on until it resolves) and every channel that heard of it is told who acknowledged. An incident that is not open is returned unchanged. Requires sign-in, the write scope and incidents:write.',
    input: { id: z.string().min(1).max(64).describe('The incident id (list_incidents shows them)') },
    output: incidentView,
    scope: 'write',
    annotations: WRITE,
    summary: (incident) =>
      `${incident.title}: ${incident.status}${incident.acknowledgedBy ? `, acknowledged by ${incident.acknowledgedBy}` : ''}.`,
    run: ({ id }, tool) =>
      acknowledgeIncident({ ctx: tool.ctx, caller: writer(tool, 'incidents:write'), input: { id } }),
  }),
]

/** The scope each tool needs, for the endpoint's check before the call runs. */
export const toolScopes = new Map(guardTools.map((definition) => [definition.name, definition.scope]))

/** A refusal (bad input, another organization, no probe) is a tool error the model can read and act on. */
function toolError(error: unknown): CallToolResult {
  if (error instanceof z.ZodError) {
    return { isError: true, content: [{ type: 'text', text: `VALIDATION_ERROR: ${z.prettifyError(error)}` }] }
  }
  if (!(error instanceof GuardError)) throw error
  return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] }
}

export function registerGuardTools(server: McpServer, context: Omit<ToolContext, 'signal'>): void {
  for (const definition of guardTools) {
    // The list mixes tool types; the SDK checks each call's arguments against that tool's own
    // input schema before `run`, and its result against the output schema.
    const { name, title, description, input, output, annotations, widget } = definition as unknown as GuardTool<
      ZodRawShape,
      ZodObject
    >
    const run = definition.run as (
      input: Record<string, unknown>,
      tool: ToolContext,
    ) => Promise<Record<string, unknown>>
    const summary = definition.summary as (result: Record<string, unknown>) => string
    const ui = widget ? WIDGETS[widget].uri : undefined
    server.registerTool(
      name,
      {
        title,
        description,
        inputSchema: input,
        outputSchema: output,
        annotations,
        ...(ui ? { _meta: { ui: { resourceUri: ui }, [RESOURCE_URI_META_KEY]: ui } } : {}),
      },
      async (args: Record<string, unknown>, extra) => {
        try {
          const result = await run(args, { ...context, signal: extra.signal })
          return { structuredContent: result, content: [{ type: 'text', text: summary(result) }] }
        } catch (error) {
          return toolError(error)
        }
      },
    )
  }
}
