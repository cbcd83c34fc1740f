import { z } from 'zod'

/**
 * What an Uptime Kuma installation holds, whichever way it was read (its SQLite database or a 1.x
 * "Export backup" JSON), in the database's own column names: the backup's camelCase fields are
 * renamed to them by read-backup.ts.
 */

/** SQLite stores booleans as 0/1, the backup as true/false. */
const flag = z
  .union([z.boolean(), z.number(), z.string(), z.null()])
  .optional()
  .transform((value) => value === true || value === 1 || value === '1' || value === 'true')
const text = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((value) => (value === null || value === undefined || value === '' ? undefined : String(value)))
const number = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((value) => (value === null || value === undefined || value === '' ? undefined : Number(value)))

export const kumaMonitor = z.object({
  id: z.coerce.number(),
  name: z.string(),
  type: z.string(),
  active: flag,
  parent: number,
  description: text,
  interval: number,
  retry_interval: number,
  resend_interval: number,
  maxretries: number,
  timeout: number,
  upside_down: flag,
  url: text,
  method: text,
  headers: text,
  body: text,
  http_body_encoding: text,
  keyword: text,
  invert_keyword: flag,
  json_path: text,
  json_path_operator: text,
  expected_value: text,
  accepted_statuscodes_json: text,
  maxredirects: number,
  ignore_tls: flag,
  auth_method: text,
  basic_auth_user: text,
  basic_auth_pass: text,
  bearer_token: text,
  proxy_id: number,
  hostname: text,
  port: number,
  packet_size: number,
  ping_count: number,
  dns_resolve_type: text,
  dns_resolve_server: text,
  push_token: text,
  database_connection_string: text,
  database_query: text,
  mqtt_topic: text,
  mqtt_username: text,
  mqtt_password: text,
  mqtt_success_message: text,
  mqtt_check_type: text,
  grpc_url: text,
  grpc_service_name: text,
  grpc_method: text,
  grpc_enable_tls: flag,
  conditions: text,
  smtp_security: text,
  ws_subprotocol: text,
})
export type KumaMonitor = z.infer<typeof kumaMonitor>

export const kumaNotification = z.looseObject({
  id: z.coerce.number(),
  name: z.string(),
  active: flag,
  is_default: flag,
  /** The provider's settings as JSON, `type` among them. */
  config: z.string(),
})
export type KumaNotification = z.infer<typeof kumaNotification>

export const kumaTag = z.object({ id: z.coerce.number(), name: z.string(), color: text })
export type KumaTag = z.infer<typeof kumaTag>

export const kumaMonitorTag = z.object({ monitor_id: z.coerce.number(), tag_id: z.coerce.number(), value: text })
export type KumaMonitorTag = z.infer<typeof kumaMonitorTag>

export const kumaMaintenance = z.looseObject({
  id: z.coerce.number(),
  title: z.string(),
  description: text,
  active: flag,
  strategy: z.string(),
  start_date: text,
  end_date: text,
  start_time: text,
  end_time: text,
  weekdays: text,
  days_of_month: text,
  interval_day: number,
  cron: text,
  duration: number,
  timezone: text,
})
export type KumaMaintenance = z.infer<typeof kumaMaintenance>

export const kumaStatusPage = z.looseObject({
  id: z.coerce.number(),
  slug: z.string(),
  title: z.string(),
  description: text,
  theme: text,
  published: flag,
  footer_text: text,
  custom_css: text,
  password: text,
  analytics_id: text,
  google_analytics_tag_id: text,
})
export type KumaStatusPage = z.infer<typeof kumaStatusPage>

/** A section of a status page (Uptime Kuma's `group` table) and its monitors in display order. */
export const kumaPageSection = z.object({
  status_page_id: z.coerce.number(),
  name: z.string(),
  monitorIds: z.array(z.number()),
})
export type KumaPageSection = z.infer<typeof kumaPageSection>

export interface KumaSource {
  /** `sqlite 1.x`, `sqlite 2.x` or `backup <version>`, for the report. */
  origin: string
  monitors: KumaMonitor[]
  notifications: KumaNotification[]
  /** [monitor id, notification id] */
  monitorNotifications: Array<[number, number]>
  tags: KumaTag[]
  monitorTags: KumaMonitorTag[]
  maintenances: KumaMaintenance[]
  /** [maintenance id, monitor id] */
  maintenanceMonitors: Array<[number, number]>
  statusPages: KumaStatusPage[]
  pageSections: KumaPageSection[]
  /** [status page id, domain] */
  pageDomains: Array<[number, string]>
}
