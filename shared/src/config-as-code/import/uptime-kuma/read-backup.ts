import { z } from 'zod'
import { type KumaMonitorTag, type KumaSource, type KumaTag, kumaMonitor, kumaNotification } from './source.ts'

/**
 * The 1.x "Export backup" file (Settings → Backup, deprecated in 1.23 and gone in 2.0):
 * `{ version, notificationList, monitorList, proxyList }`, each monitor as the UI's monitor list
 * holds it (Monitor.toJSON: camelCase names, tags and notification ids inline).
 */
const backupTag = z.object({
  tag_id: z.coerce.number(),
  name: z.string(),
  color: z.string().nullish(),
  value: z.string().nullish(),
})
const backupMonitor = z.looseObject({
  id: z.coerce.number(),
  accepted_statuscodes: z.array(z.string()).optional(),
  notificationIDList: z.record(z.string(), z.boolean()).optional(),
  tags: z.array(backupTag).optional(),
})
export const kumaBackup = z.object({
  version: z.string(),
  notificationList: z.array(z.looseObject({})).default([]),
  monitorList: z.union([z.array(backupMonitor), z.record(z.string(), backupMonitor).transform(Object.values)]),
})

/** `retryInterval` → `retry_interval`: the backup's names as the database's columns. */
const column = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

const renamed = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).map(([name, value]) => [column(name), value]))

export function readBackup(json: unknown): KumaSource {
  const backup = kumaBackup.parse(json)
  const tags = new Map<number, KumaTag>()
  const monitorTags: KumaMonitorTag[] = []
  const monitorNotifications: Array<[number, number]> = []
  const monitors = backup.monitorList.map((entry) => {
    const { accepted_statuscodes, notificationIDList, tags: entryTags, ...fields } = entry
    for (const tag of entryTags ?? []) {
      tags.set(tag.tag_id, { id: tag.tag_id, name: tag.name, color: tag.color ?? undefined })
      monitorTags.push({ monitor_id: entry.id, tag_id: tag.tag_id, value: tag.value || undefined })
    }
    for (const [id, on] of Object.entries(notificationIDList ?? {})) {
      if (on) monitorNotifications.push([entry.id, Number(id)])
    }
    return kumaMonitor.parse({
      ...renamed(fields),
      accepted_statuscodes_json: accepted_statuscodes ? JSON.stringify(accepted_statuscodes) : undefined,
    })
  })
  return {
    origin: `Uptime Kuma ${backup.version} backup`,
    monitors,
    notifications: backup.notificationList.map((row) => kumaNotification.parse(renamed(row))),
    monitorNotifications,
    tags: [...tags.values()],
    monitorTags,
    maintenances: [],
    maintenanceMonitors: [],
    statusPages: [],
    pageSections: [],
    pageDomains: [],
  }
}
