import { deviceHealth } from '@guard/shared'
import { z } from 'zod'
import { subjectTags } from '../tags/schemas.ts'

const level = z.number().min(1).max(100)
const holdSeconds = z
  .number()
  .int()
  .min(0)
  .max(86_400)
  .describe(
    'Seconds a level must hold before the health follows it, going up and coming down (default 300; 0 follows every heartbeat)',
  )
const threshold = z
  .object({ warning: level, critical: level, holdSeconds: holdSeconds.optional() })
  .strict()
  .refine((value) => value.warning < value.critical, 'warning must be below critical')

/**
 * Usage percentages at which a device turns warning or critical (defaults 80 and 90), and how long
 * a level must hold first; a metric given without `holdSeconds` keeps the one it has.
 */
export const thresholdsInput = z
  .object({ cpu: threshold.optional(), memory: threshold.optional(), disk: threshold.optional() })
  .strict()
const thresholdView = z.object({ warning: z.number(), critical: z.number(), holdSeconds })
export const thresholds = z.object({ cpu: thresholdView, memory: thresholdView, disk: thresholdView })
export type Thresholds = z.infer<typeof thresholds>

const name = z.string().trim().min(1).max(100)
const tags = subjectTags

export const createDeviceInput = z
  .object({ name, tags: tags.default([]), thresholds: thresholdsInput.optional() })
  .strict()
export type CreateDeviceInput = z.input<typeof createDeviceInput>

export const updateDeviceInput = z
  .object({ name: name.optional(), tags: tags.optional(), thresholds: thresholdsInput.optional() })
  .strict()
export type UpdateDeviceInput = z.input<typeof updateDeviceInput>

/** The list item of the spec's Device. */
export const deviceView = z.object({
  id: z.string(),
  organizationId: z.string(),
  name: z.string(),
  /** Null until the agent has sent its system information. */
  hostname: z.string().nullable(),
  platform: z.string().nullable(),
  tags: z.array(z.string()),
  isOnline: z.boolean(),
  lastSeen: z.string().nullable(),
  healthStatus: deviceHealth,
  groupId: z.string().nullable().optional().describe('The group the device is in; null: none'),
  createdAt: z.string(),
})
export type DeviceView = z.infer<typeof deviceView>

/** The spec's Device detail. totalMemory and totalDisk are in bytes. */
export const deviceDetail = deviceView.extend({
  architecture: z.string().nullable(),
  os: z.string().nullable(),
  cpu: z.string().nullable(),
  cpuCores: z.number().nullable(),
  totalMemory: z.number().nullable().describe('bytes'),
  totalDisk: z.number().nullable().describe('bytes'),
  agentVersion: z.string().nullable(),
  uptimeSeconds: z.number().nullable(),
  /** Seconds between the agent's heartbeats, as it last reported. */
  heartbeatInterval: z.number(),
  thresholds,
  /** The first characters of the current agent token, to recognise it. */
  tokenPrefix: z.string(),
  updatedAt: z.string(),
})
export type DeviceDetail = z.infer<typeof deviceDetail>

/** What enrolment and token regeneration answer: the token is shown this once. */
export const enrolledDevice = deviceDetail.extend({ token: z.string() })

export const deviceStats = z.object({
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  healthy: z.number().int(),
  warning: z.number().int(),
  critical: z.number().int(),
  activeIncidents: z.number().int(),
})

export const metricType = z.enum(['cpu', 'memory', 'disk', 'network'])
export const metricRange = z.enum(['1h', '6h', '24h', '7d', '30d'])
export const metricsQuery = z.object({
  type: metricType.optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(100),
  range: metricRange.default('24h'),
})
export type MetricsQuery = z.input<typeof metricsQuery>

/** The spec's Device metric; ranges above 24h read per-minute averages. */
export const deviceMetric = z.object({
  id: z.string(),
  deviceId: z.string(),
  type: metricType,
  name: z.string(),
  value: z.number(),
  unit: z.string(),
  timestamp: z.string(),
})
export type DeviceMetric = z.infer<typeof deviceMetric>

export const deviceProcess = z.object({
  pid: z.number().int(),
  name: z.string(),
  command: z.string(),
  cpuPercent: z.number(),
  memoryMB: z.number(),
  status: z.string(),
  user: z.string(),
})
export const deviceApplication = z.object({
  name: z.string(),
  version: z.string(),
  publisher: z.string(),
  installPath: z.string(),
  size: z.number().describe('bytes'),
  isRunning: z.boolean(),
})
export const deviceConnection = z.object({
  localAddress: z.string(),
  localPort: z.number().int(),
  remoteAddress: z.string().nullable(),
  remotePort: z.number().int().nullable(),
  protocol: z.string(),
  status: z.string(),
  processName: z.string(),
})
