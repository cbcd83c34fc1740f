import { z } from 'zod'

/**
 * The guard.yaml document (issue 32): the organization's monitoring as one declarative file.
 *
 * This schema owns the document's structure: the lists, each entry's stable `id` and the fields
 * that reference other entries by their document id. Every other field of an entry is the REST
 * API's create body of that object (POST /api/domains, /api/services, ...), validated by the
 * collector's create schema when the document is planned, so those rules have one source of
 * truth; the published JSON Schema (docs/guard.schema.json) combines both.
 */

export const DOCUMENT_VERSION = 1

/** A stable key chosen by the author: what matches a document entry with its object across renames. */
export const configKey = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,62}$/,
    'an id is 1 to 63 lowercase letters, digits, dots, underscores or hyphens, starting with a letter or digit',
  )
export type ConfigKey = z.infer<typeof configKey>

const keys = z.array(configKey).max(500)

/** Another entry's fields come from its create body: kept as given, checked when planned. */
const entry = <Shape extends z.ZodRawShape>(shape: Shape) => z.looseObject({ id: configKey, ...shape })

export const tagEntry = z.strictObject({
  id: configKey,
  name: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('The tag monitors carry, `key` or `key:value`; the id when left out'),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'a colour is #rrggbb')
    .optional()
    .describe("The tag key's colour (PUT /api/tags/{key})"),
})

export const groupEntry = entry({
  name: z.string().min(1).max(100),
  parent: configKey.optional().describe('The id of the group this one nests in'),
})

export const channelEntry = entry({
  name: z.string().min(1).max(100),
  provider: z.string().min(1).max(64).describe('The notification provider (GET /api/notification-providers)'),
  config: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("The provider's settings; secrets written as references to environment variables"),
})

export const routeEntry = entry({
  name: z.string().min(1).max(100),
  channels: keys.default([]).describe('Ids of the channels notified at once'),
  selector: z
    .looseObject({ monitors: keys.optional().describe('Ids of the monitors the route takes') })
    .optional()
    .describe('The route selector of POST /api/notification-routes, monitors named by id'),
})

/** The references every monitor kind shares; the rest is its create body. */
const monitorReferences = {
  tags: keys.optional().describe('Ids of entries of `tags`'),
  group: configKey.optional().describe('The id of the group the monitor belongs to'),
  dependsOn: keys.optional().describe('Ids of the monitors this one sits behind'),
  channels: keys.optional().describe('Ids of channels notified of this monitor alone, through a route of its own'),
}

export const domainEntry = entry(monitorReferences)
export const serviceEntry = entry(monitorReferences)
export const heartbeatEntry = entry(monitorReferences)
export const syntheticEntry = entry(monitorReferences)

export const maintenanceEntry = entry({
  title: z.string().min(1).max(200),
  monitors: keys.optional().describe('Ids of the monitors covered; left out: the whole organization'),
})

export const statusPageComponentEntry = z.union([
  z.strictObject({ monitor: configKey, displayName: z.string().min(1).max(100).optional() }),
  z.strictObject({ group: configKey, displayName: z.string().min(1).max(100).optional() }),
])

export const statusPageEntry = entry({
  name: z.string().min(1).max(100),
  slug: z.string().min(1).max(64),
  components: z.array(statusPageComponentEntry).max(500).default([]).describe('In display order'),
})

/** The lists of monitors, whose ids share one namespace: dependencies, components and windows name any of them. */
export const MONITOR_LISTS = ['domains', 'services', 'heartbeats', 'synthetics'] as const
export type MonitorList = (typeof MONITOR_LISTS)[number]

export const guardDocument = z.strictObject({
  $schema: z.string().optional().describe('The JSON Schema editors validate against'),
  version: z.literal(DOCUMENT_VERSION),
  tags: z.array(tagEntry).default([]),
  groups: z.array(groupEntry).default([]),
  channels: z.array(channelEntry).default([]),
  routes: z.array(routeEntry).default([]),
  domains: z.array(domainEntry).default([]),
  services: z.array(serviceEntry).default([]),
  heartbeats: z.array(heartbeatEntry).default([]),
  synthetics: z.array(syntheticEntry).default([]),
  maintenance: z.array(maintenanceEntry).default([]),
  statusPages: z.array(statusPageEntry).default([]),
})

/** The lists of a document, in the order apply creates them. */
export const DOCUMENT_LISTS = [
  'tags',
  'groups',
  'channels',
  'routes',
  'domains',
  'services',
  'heartbeats',
  'synthetics',
  'maintenance',
  'statusPages',
] as const
export type DocumentList = (typeof DOCUMENT_LISTS)[number]

/** A parsed document: every list present. */
export type GuardDocument = z.infer<typeof guardDocument>
/** A document as written: lists may be left out. What importers produce. */
export type GuardDocumentInput = z.input<typeof guardDocument>
export type TagEntry = z.infer<typeof tagEntry>
export type GroupEntry = z.infer<typeof groupEntry>
export type ChannelEntry = z.infer<typeof channelEntry>
export type RouteEntry = z.infer<typeof routeEntry>
export type DomainEntry = z.infer<typeof domainEntry>
export type ServiceEntry = z.infer<typeof serviceEntry>
export type HeartbeatEntry = z.infer<typeof heartbeatEntry>
export type SyntheticEntry = z.infer<typeof syntheticEntry>
export type MonitorEntry = DomainEntry | ServiceEntry | HeartbeatEntry | SyntheticEntry
export type MaintenanceEntry = z.infer<typeof maintenanceEntry>
export type StatusPageEntry = z.infer<typeof statusPageEntry>
export type StatusPageComponentEntry = z.infer<typeof statusPageComponentEntry>
