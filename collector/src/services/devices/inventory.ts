import type { Caller, CollectorContext } from '../../context.ts'
import { findDevice } from './find.ts'

type Kind = 'processes' | 'applications' | 'connections'

interface Stored {
  processes: Array<{
    pid: number
    name: string
    command: string
    cpu_percent: number
    memory_mb: number
    status: string
    user: string
  }>
  applications: Array<{
    name: string
    version: string
    publisher: string
    install_path: string
    size: number
    is_running: boolean
  }>
  connections: Array<{
    local_address: string
    local_port: number
    remote_address: string | null
    remote_port: number | null
    protocol: string
    status: string
    process_name: string
  }>
}

async function readSnapshot<K extends Kind>(
  ctx: CollectorContext,
  caller: Caller,
  deviceId: string,
  kind: K,
): Promise<Stored[K]> {
  await findDevice(ctx.sql, caller, deviceId)
  const { rows } = await ctx.sql.query<{ items: Stored[K] | null }>(
    `SELECT ${kind} AS items FROM monitoring.device_snapshots WHERE device_id = $1`,
    [deviceId],
  )
  return rows[0]?.items ?? []
}

/** The processes of the device's last inventory, busiest first as the agent sorted them. */
export async function readDeviceProcesses(ctx: CollectorContext, caller: Caller, deviceId: string) {
  return (await readSnapshot(ctx, caller, deviceId, 'processes')).map((p) => ({
    pid: p.pid,
    name: p.name,
    command: p.command,
    cpuPercent: p.cpu_percent,
    memoryMB: p.memory_mb,
    status: p.status,
    user: p.user,
  }))
}

export async function readDeviceApplications(ctx: CollectorContext, caller: Caller, deviceId: string) {
  return (await readSnapshot(ctx, caller, deviceId, 'applications')).map((a) => ({
    name: a.name,
    version: a.version,
    publisher: a.publisher,
    installPath: a.install_path,
    size: a.size,
    isRunning: a.is_running,
  }))
}

export async function readDeviceConnections(ctx: CollectorContext, caller: Caller, deviceId: string) {
  return (await readSnapshot(ctx, caller, deviceId, 'connections')).map((c) => ({
    localAddress: c.local_address,
    localPort: c.local_port,
    remoteAddress: c.remote_address,
    remotePort: c.remote_port,
    protocol: c.protocol,
    status: c.status,
    processName: c.process_name,
  }))
}
