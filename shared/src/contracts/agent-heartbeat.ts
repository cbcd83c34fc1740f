import { z } from 'zod'
import { parseWellFormedJson } from '../text/well-formed.ts'

/**
 * The body of `POST /agent` (snake_case, as the spec writes it) and the message the collector puts
 * on the bus for it. Sizes are in bytes, rates in bytes per second, times ISO 8601 UTC.
 */
const percent = z.number().min(0).max(100)
const gb = z.number().min(0).max(1e9)
const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
const rate = z.number().min(0).max(1e15)
const text = (max: number) => z.string().max(max)

/** The spec's agent metrics object, plus optional load, per-filesystem disks and network totals. */
export const agentMetrics = z
  .object({
    cpu: z.object({ usage_percent: percent, cores: z.number().int().min(1).max(4096) }),
    memory: z.object({ total_gb: gb, used_gb: gb, usage_percent: percent }),
    disk: z.object({ total_gb: gb, used_gb: gb, usage_percent: percent }),
    load: z.object({ one: z.number().min(0), five: z.number().min(0), fifteen: z.number().min(0) }).optional(),
    filesystems: z
      .array(
        z.object({ mount: text(512), fs: text(256), type: text(64), size: bytes, used: bytes, usage_percent: percent }),
      )
      .max(64)
      .optional(),
  })
  .strict()
export type AgentMetrics = z.infer<typeof agentMetrics>

export const agentSystemInfo = z
  .object({
    hostname: text(255),
    platform: text(64),
    os: text(255).optional(),
    architecture: text(64),
    cpu_model: text(255),
    cpu_cores: z.number().int().min(1).max(4096),
    total_memory: bytes,
    total_disk: bytes,
    agent_version: text(64),
    uptime_seconds: z.number().min(0),
  })
  .strict()
export type AgentSystemInfo = z.infer<typeof agentSystemInfo>

export const agentProcess = z
  .object({
    pid: z.number().int().min(0),
    name: text(255),
    command: text(1024),
    cpu_percent: z.number().min(0).max(100_000),
    memory_mb: z.number().min(0),
    status: text(32),
    user: text(64),
  })
  .strict()

export const agentApplication = z
  .object({
    name: text(255),
    version: text(128),
    publisher: text(255),
    install_path: text(1024),
    size: bytes,
    is_running: z.boolean(),
  })
  .strict()

const port = z.number().int().min(0).max(65_535)
export const agentConnection = z
  .object({
    local_address: text(64),
    local_port: port,
    remote_address: text(64).nullable(),
    remote_port: port.nullable(),
    protocol: text(16),
    status: text(32),
    process_name: text(255),
  })
  .strict()

export const agentNetworkInterface = z
  .object({ interface: text(64), rx_bytes_per_second: rate, tx_bytes_per_second: rate })
  .strict()

/** Inventories are sent every few minutes, not with every heartbeat; limits keep one body bounded. */
export const agentHeartbeat = z
  .object({
    device_id: z.string().min(1).max(64),
    metrics: agentMetrics,
    /** When the agent took the sample; a spooled heartbeat keeps its original time. */
    timestamp: z.iso.datetime({ offset: true }).optional(),
    /** The agent's interval, so the collector knows when three of them have passed. */
    interval_seconds: z.number().int().min(1).max(3600).optional(),
    system: agentSystemInfo.optional(),
    processes: z.array(agentProcess).max(500).optional(),
    applications: z.array(agentApplication).max(10_000).optional(),
    connections: z.array(agentConnection).max(5000).optional(),
    network: z.array(agentNetworkInterface).max(64).optional(),
  })
  .strict()
export type AgentHeartbeat = z.infer<typeof agentHeartbeat>

/** What the collector publishes on the bus once a heartbeat is authenticated and valid. */
export const deviceHeartbeatV1 = z.object({
  v: z.literal(1),
  deviceId: z.string().min(1),
  organizationId: z.string().min(1),
  /** The heartbeat's own time (the agent's `timestamp`, else when it arrived). */
  timestamp: z.iso.datetime(),
  receivedAt: z.iso.datetime(),
  heartbeat: agentHeartbeat,
})
export type DeviceHeartbeat = z.infer<typeof deviceHeartbeatV1>

export const DEVICES_STREAM = 'DEVICES'
export const deviceHeartbeatSubject = 'devices.heartbeat'
/** The bus drops a repeated heartbeat: one device cannot send two samples for the same millisecond. */
export const deviceHeartbeatMsgId = (deviceId: string, timestamp: string) => `${deviceId}:${timestamp}`

export function encodeDeviceHeartbeat(message: DeviceHeartbeat): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(deviceHeartbeatV1.parse(message)))
}

/** Throws a ZodError (or SyntaxError) for anything that is not a v1 device heartbeat. */
export function decodeDeviceHeartbeat(data: Uint8Array): DeviceHeartbeat {
  return deviceHeartbeatV1.parse(parseWellFormedJson(new TextDecoder().decode(data)))
}
