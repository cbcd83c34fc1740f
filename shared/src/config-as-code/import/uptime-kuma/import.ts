import { readFile } from 'node:fs/promises'
import { importContext } from './context.ts'
import { mapMaintenance } from './map-maintenance.ts'
import { mapMonitors } from './map-monitor.ts'
import { mapNotifications } from './map-notification.ts'
import { mapStatusPages } from './map-status-page.ts'
import { mapTags } from './map-tags.ts'
import { readBackup } from './read-backup.ts'
import { readDatabase } from './read-database.ts'
import type { ImportResult } from './report.ts'
import type { KumaSource } from './source.ts'

const SQLITE_HEADER = 'SQLite format 3\0'

/** Reads `kuma.db` (told apart by SQLite's file header) or a 1.x backup JSON. */
export async function readUptimeKuma(file: string): Promise<KumaSource> {
  const bytes = await readFile(file)
  if (bytes.subarray(0, SQLITE_HEADER.length).toString('latin1') === SQLITE_HEADER) return readDatabase(file)
  let json: unknown
  try {
    json = JSON.parse(bytes.toString('utf8'))
  } catch {
    throw new Error(`${file} is neither an SQLite database nor a JSON backup of Uptime Kuma`)
  }
  return readBackup(json)
}

/** The document ids a source id is linked to, by a list of [source id, linked source id] pairs. */
function lookup(pairs: Array<[number, number]>, idOf: (linked: number) => string | undefined) {
  const linked = new Map<number, number[]>()
  for (const [from, to] of pairs) linked.set(from, [...(linked.get(from) ?? []), to])
  return (from: number) => (linked.get(from) ?? []).flatMap((to) => idOf(to) ?? [])
}

/**
 * An Uptime Kuma installation as a guard.yaml document for review, with what could not be
 * mapped and the environment variables that stand for its secrets.
 */
export function mapUptimeKuma(source: KumaSource): ImportResult {
  const context = importContext()
  const { channels, channelIds } = mapNotifications(source.notifications, context)
  const { tags, tagsOf } = mapTags(source.tags, source.monitorTags, context)
  const channelsOf = lookup(source.monitorNotifications, (notification) => channelIds.get(notification))
  const monitors = mapMonitors(source.monitors, { tagsOf, channelsOf }, context)
  const monitorsOf = lookup(source.maintenanceMonitors, (monitor) => monitors.monitorIds.get(monitor))
  const maintenance = mapMaintenance(source.maintenances, monitorsOf, context)
  const statusPages = mapStatusPages(
    source.statusPages,
    source.pageSections,
    source.pageDomains,
    monitors.monitorIds,
    context,
  )
  return {
    origin: source.origin,
    document: {
      version: 1,
      tags,
      groups: monitors.groups,
      channels,
      domains: monitors.domains,
      services: monitors.services,
      heartbeats: monitors.heartbeats,
      maintenance,
      statusPages,
    },
    unmapped: context.unmapped,
    secrets: context.secrets,
  }
}

export async function importUptimeKuma(file: string): Promise<ImportResult> {
  return mapUptimeKuma(await readUptimeKuma(file))
}
