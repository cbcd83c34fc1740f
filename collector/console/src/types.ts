/** The API's answers as the screens read them (the collector's zod schemas are the source of truth). */

export interface Page<T> {
  success: boolean
  data: T
}

export type DeviceHealth = 'healthy' | 'warning' | 'critical'

export interface Device {
  id: string
  organizationId: string
  name: string
  hostname: string | null
  platform: string | null
  tags: string[]
  isOnline: boolean
  lastSeen: string | null
  healthStatus: DeviceHealth
  createdAt: string
}

export type ThresholdKind = 'cpu' | 'memory' | 'disk'

export interface DeviceDetail extends Device {
  architecture: string | null
  os: string | null
  cpu: string | null
  cpuCores: number | null
  totalMemory: number | null
  totalDisk: number | null
  agentVersion: string | null
  uptimeSeconds: number | null
  heartbeatInterval: number
  tokenPrefix: string
  /** holdSeconds: how long a level must last before the health follows it, up and down. */
  thresholds: Record<ThresholdKind, { warning: number; critical: number; holdSeconds: number }>
  updatedAt: string
}

export interface Incident {
  id: string
  title: string
  description: string
  status: string
  severity: 'low' | 'medium' | 'high' | 'critical'
  impact: string
  cause: string
  monitorId: string | null
  monitorKind: string | null
  affectedServices: string[]
  affectedDomains: string[]
  affectedDevices: string[]
  detectedAt: string
  acknowledgedAt: string | null
  acknowledgedBy: string | null
  resolvedAt: string | null
  resolvedBy: string | null
  flapCount: number
  createdAt: string
  updatedAt: string
}

export interface NamedMonitor {
  id: string
  name: string
}

export const INCIDENT_STATUSES = [
  'open',
  'acknowledged',
  'investigating',
  'identified',
  'monitoring',
  'resolved',
] as const
export const INCIDENT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const

/** Badge tones shared by the screens, so a state has one colour everywhere. */
export const severityTone: Record<string, string> = {
  low: 'neutral',
  medium: 'medium',
  high: 'high',
  critical: 'critical',
}
export const healthTone: Record<string, string> = { healthy: 'up', warning: 'degraded', critical: 'down' }
