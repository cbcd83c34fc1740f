import { idAllocator, namedEntries } from '../document-ids.ts'
import { assembleDocument, type DocumentEntry, type ImportResult, type UnmappedItem } from '../import-result.ts'
import { secretCollector } from '../secret-placeholders.ts'
import { gatusMaintenance } from './gatus-schema.ts'
import { mapAlerting } from './map-alerting.ts'
import { type EndpointContext, mapEndpoint } from './map-endpoint.ts'
import { mapExternalEndpoint } from './map-external-endpoint.ts'
import { mapMaintenanceWindow } from './map-maintenance.ts'
import { readGatusConfig } from './read-gatus-config.ts'

const TOP_LEVEL_REASONS: Record<string, string> = {
  metrics: 'Guard always serves its metrics (see Operations)',
  storage: 'Guard keeps results in its own stores',
  web: "Guard's listening address is its own configuration",
  ui: "settings of Gatus's dashboard",
  security: "Guard's users and API keys are its own",
  concurrency: 'Guard schedules checks across its probes',
  'disable-monitoring-lock': 'Guard schedules checks across its probes',
  'skip-invalid-config-update': 'guard apply refuses an invalid document as a whole',
  connectivity: 'Guard marks a probe offline on its own',
  remote: 'Guard runs probes in every location instead of reading other instances',
  tunneling: 'Guard has no SSH tunnels; run a probe where the target is reachable',
  suites: "multi-step checks are Guard's synthetics (flows), which are written anew",
  debug: 'a setting of the Gatus process',
}
const MAPPED_TOP_LEVEL = ['endpoints', 'external-endpoints', 'alerting', 'maintenance', 'announcements']

export interface ImportGatusOptions {
  /** Where the recurring maintenance windows start from (their next occurrence); default now. */
  now?: Date
}

/**
 * Gatus's `config.yaml`, or a directory of them, as a guard.yaml document for review: endpoints
 * become domains (http/https) or services, external endpoints heartbeats, alerting providers
 * channels, groups groups and maintenance windows windows; what has no place is listed.
 */
export async function importGatus(path: string, options: ImportGatusOptions = {}): Promise<ImportResult> {
  const { config, sourceOf } = await readGatusConfig(path)
  const unmapped: UnmappedItem[] = []
  const secrets = secretCollector()
  const groups = namedEntries()
  const tags = namedEntries()
  const allocateMaintenanceId = idAllocator()
  const context: EndpointContext = {
    sourceOf,
    unmapped,
    secrets,
    alerting: mapAlerting(config.alerting, { sourceOf, unmapped, secrets }),
    allocateMonitorId: idAllocator(),
    groupIdOf: groups.idOf,
    tagIdOf: tags.idOf,
    maintenance: { now: options.now ?? new Date(), allocateId: allocateMaintenanceId, unmapped },
  }
  const domains: DocumentEntry[] = []
  const services: DocumentEntry[] = []
  const heartbeats: DocumentEntry[] = []
  const maintenance: DocumentEntry[] = []
  const list = (key: string) => {
    const value = config[key]
    if (value === undefined || value === null) return []
    if (Array.isArray(value)) return value
    unmapped.push({ source: sourceOf(config), item: key, reason: 'expected a list' })
    return []
  }
  for (const [index, raw] of list('endpoints').entries()) {
    const mapped = mapEndpoint(raw, index, context)
    if (mapped.domain) domains.push(mapped.domain)
    if (mapped.service) services.push(mapped.service)
    maintenance.push(...mapped.maintenance)
  }
  for (const [index, raw] of list('external-endpoints').entries()) {
    const mapped = mapExternalEndpoint(raw, index, context)
    if (mapped.heartbeat) heartbeats.push(mapped.heartbeat)
    maintenance.push(...mapped.maintenance)
  }
  if (config.maintenance !== undefined) {
    const source = sourceOf(config.maintenance)
    const parsed = gatusMaintenance.safeParse(config.maintenance)
    if (parsed.success) {
      maintenance.unshift(
        ...mapMaintenanceWindow(
          parsed.data,
          { source, item: 'maintenance', title: 'Maintenance (from Gatus)', idBase: 'maintenance' },
          context.maintenance,
        ),
      )
    } else {
      unmapped.push({
        source,
        item: 'maintenance',
        reason: `not a maintenance window: ${parsed.error.issues[0]?.message}`,
      })
    }
  }
  for (const [index, announcement] of list('announcements').entries()) {
    const message = (announcement as { message?: unknown } | null)?.message
    unmapped.push({
      source: sourceOf(announcement),
      item: `announcements[${index}]${typeof message === 'string' ? ` ${JSON.stringify(message)}` : ''}`,
      reason: "a guard.yaml document holds no announcements; post it as a status page's incident or notice",
    })
  }
  for (const key of Object.keys(config)) {
    if (MAPPED_TOP_LEVEL.includes(key)) continue
    unmapped.push({
      source: sourceOf(config[key]),
      item: key,
      reason: TOP_LEVEL_REASONS[key] ?? 'not a setting Guard has',
    })
  }
  return {
    document: assembleDocument({
      tags: tags.entries,
      groups: groups.entries,
      channels: context.alerting.channels,
      domains,
      services,
      heartbeats,
      maintenance,
    }),
    unmapped,
    secrets: secrets.references,
  }
}
