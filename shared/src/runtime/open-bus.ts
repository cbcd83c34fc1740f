import { join } from 'node:path'
import { createInProcessBus, createNatsBus, createNatsBusInBackground, openDurableInProcessBus } from '../bus/index.ts'
import type { Bus } from '../bus/types.ts'
import { guardStreams } from '../contracts/streams.ts'

export interface BusConfig {
  NATS_URL?: string | undefined
  NATS_USER?: string | undefined
  NATS_PASSWORD?: string | undefined
  NATS_TOKEN?: string | undefined
  GUARD_STREAM_REPLICAS?: number | undefined
  GUARD_NATS_DOMAIN?: string | undefined
  /** Without NATS: the in-process bus keeps its streams under `<GUARD_DATA_DIR>/bus`. */
  GUARD_DATA_DIR?: string | undefined
  GUARD_BUS_FSYNC?: 'always' | 'none' | undefined
  GUARD_BUS_MAX_BYTES?: number | undefined
  GUARD_BUS_MAX_AGE_HOURS?: number | undefined
}

export interface OpenBusOptions {
  /**
   * Return at once and connect to NATS in the background, for a process that has useful work
   * to do while NATS is away (see createNatsBusInBackground). Default: fail when NATS is down.
   */
  connectInBackground?: boolean
  onError?: (error: unknown, context: string) => void
}

/**
 * NATS when NATS_URL is set; otherwise the in-process bus, which only reaches this process and
 * keeps its streams on disk under the data directory (in memory only without one).
 */
export async function openBus(config: BusConfig, name: string, options: OpenBusOptions = {}): Promise<Bus> {
  if (!config.NATS_URL && config.GUARD_DATA_DIR) {
    return openDurableInProcessBus({
      dir: join(config.GUARD_DATA_DIR, 'bus'),
      streams: guardStreams,
      fsync: config.GUARD_BUS_FSYNC ?? 'always',
      maxBytes: config.GUARD_BUS_MAX_BYTES ?? 1024 * 1024 * 1024,
      maxAgeMs: (config.GUARD_BUS_MAX_AGE_HOURS ?? 72) * 3600_000,
    })
  }
  if (!config.NATS_URL) return createInProcessBus({ streams: guardStreams })
  const natsOptions = {
    servers: config.NATS_URL,
    name,
    streams: guardStreams,
    replicas: config.GUARD_STREAM_REPLICAS ?? 1,
    ...(config.GUARD_NATS_DOMAIN ? { domain: config.GUARD_NATS_DOMAIN } : {}),
    ...(config.NATS_USER ? { user: config.NATS_USER } : {}),
    ...(config.NATS_PASSWORD ? { pass: config.NATS_PASSWORD } : {}),
    ...(config.NATS_TOKEN ? { token: config.NATS_TOKEN } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  }
  return options.connectInBackground ? createNatsBusInBackground(natsOptions) : createNatsBus(natsOptions)
}
