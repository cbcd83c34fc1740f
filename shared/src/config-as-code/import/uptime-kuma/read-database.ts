import { z } from 'zod'
import {
  type KumaSource,
  kumaMaintenance,
  kumaMonitor,
  kumaMonitorTag,
  kumaNotification,
  kumaStatusPage,
  kumaTag,
} from './source.ts'
import { openSqlite } from './sqlite.ts'

type Row = Record<string, unknown>

const pair = z.tuple([z.coerce.number(), z.coerce.number()])

/**
 * Reads an Uptime Kuma SQLite database (`data/kuma.db`, 1.x or 2.x) read-only, with Node's
 * built-in SQLite.
 */
export async function readDatabase(file: string): Promise<KumaSource> {
  const db = await openSqlite(file, { readOnly: true })
  try {
    const tables = new Set(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((row) => row.name),
    )
    if (!tables.has('monitor')) throw new Error(`${file} is not an Uptime Kuma database: it has no monitor table`)
    /** Tables an older version lacks (maintenance before 1.19) read as empty. */
    const all = (table: string, sql: string): Row[] => (tables.has(table) ? db.prepare(sql).all() : [])
    const sections = all('group', 'SELECT id, name, status_page_id FROM "group" ORDER BY status_page_id, weight, id')
    const members = all('monitor_group', 'SELECT group_id, monitor_id FROM monitor_group ORDER BY weight, id')
    return {
      origin: tables.has('knex_migrations') ? 'Uptime Kuma 2.x database' : 'Uptime Kuma 1.x database',
      monitors: all('monitor', 'SELECT * FROM monitor ORDER BY id').map((row) => kumaMonitor.parse(row)),
      notifications: all('notification', 'SELECT * FROM notification ORDER BY id').map((row) =>
        kumaNotification.parse(row),
      ),
      monitorNotifications: all(
        'monitor_notification',
        'SELECT monitor_id, notification_id FROM monitor_notification ORDER BY id',
      ).map((row) => pair.parse([row.monitor_id, row.notification_id])),
      tags: all('tag', 'SELECT id, name, color FROM tag ORDER BY id').map((row) => kumaTag.parse(row)),
      monitorTags: all('monitor_tag', 'SELECT monitor_id, tag_id, value FROM monitor_tag ORDER BY id').map((row) =>
        kumaMonitorTag.parse(row),
      ),
      maintenances: all('maintenance', 'SELECT * FROM maintenance ORDER BY id').map((row) =>
        kumaMaintenance.parse(row),
      ),
      maintenanceMonitors: all(
        'monitor_maintenance',
        'SELECT maintenance_id, monitor_id FROM monitor_maintenance ORDER BY id',
      ).map((row) => pair.parse([row.maintenance_id, row.monitor_id])),
      statusPages: all('status_page', 'SELECT * FROM status_page ORDER BY id').map((row) => kumaStatusPage.parse(row)),
      pageSections: sections
        .filter((section) => section.status_page_id !== null)
        .map((section) => ({
          status_page_id: Number(section.status_page_id),
          name: String(section.name),
          monitorIds: members
            .filter((member) => member.group_id === section.id)
            .map((member) => Number(member.monitor_id)),
        })),
      pageDomains: all('status_page_cname', 'SELECT status_page_id, domain FROM status_page_cname ORDER BY id').map(
        (row) => [Number(row.status_page_id), String(row.domain)],
      ),
    }
  } finally {
    db.close()
  }
}
