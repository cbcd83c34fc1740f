import type { DeviceHeartbeat } from '@guard/shared'

export interface MetricRow {
  organization_id: string
  device_id: string
  type: 'cpu' | 'memory' | 'disk' | 'network'
  name: string
  value: number
  unit: string
  timestamp: number
}

const GB = 1024 ** 3

/**
 * The rows one heartbeat becomes. Names: `usage` (%), `used`/`total` (bytes), `load1|5|15`,
 * `cores`, `fs:<mount>` (% of one filesystem), `rx:<interface>`/`tx:<interface>` (bytes/s) and
 * `rx`/`tx` (all interfaces).
 */
export function metricRows(message: DeviceHeartbeat): MetricRow[] {
  const { metrics, network } = message.heartbeat
  const base = {
    organization_id: message.organizationId,
    device_id: message.deviceId,
    timestamp: Date.parse(message.timestamp),
  }
  const rows: MetricRow[] = []
  const add = (type: MetricRow['type'], name: string, value: number, unit: string) =>
    rows.push({ ...base, type, name, value, unit })
  add('cpu', 'usage', metrics.cpu.usage_percent, '%')
  add('cpu', 'cores', metrics.cpu.cores, 'count')
  if (metrics.load) {
    add('cpu', 'load1', metrics.load.one, 'load')
    add('cpu', 'load5', metrics.load.five, 'load')
    add('cpu', 'load15', metrics.load.fifteen, 'load')
  }
  add('memory', 'usage', metrics.memory.usage_percent, '%')
  add('memory', 'used', Math.round(metrics.memory.used_gb * GB), 'bytes')
  add('memory', 'total', Math.round(metrics.memory.total_gb * GB), 'bytes')
  add('disk', 'usage', metrics.disk.usage_percent, '%')
  add('disk', 'used', Math.round(metrics.disk.used_gb * GB), 'bytes')
  add('disk', 'total', Math.round(metrics.disk.total_gb * GB), 'bytes')
  for (const fs of metrics.filesystems ?? []) add('disk', `fs:${fs.mount}`, fs.usage_percent, '%')
  if (network) {
    let rx = 0
    let tx = 0
    for (const nic of network) {
      add('network', `rx:${nic.interface}`, nic.rx_bytes_per_second, 'bytes/s')
      add('network', `tx:${nic.interface}`, nic.tx_bytes_per_second, 'bytes/s')
      rx += nic.rx_bytes_per_second
      tx += nic.tx_bytes_per_second
    }
    add('network', 'rx', rx, 'bytes/s')
    add('network', 'tx', tx, 'bytes/s')
  }
  return rows
}
