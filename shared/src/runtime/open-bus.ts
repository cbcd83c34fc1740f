import { createInProcessBus, createNatsBus, createNatsBusInBackground } from '../bus/index.ts'
import type { Bus } from '../bus/types.ts'
import { guardStreams } from '../contracts/streams.ts'

export interface BusConfig {
  NATS_URL?: string | undefined
  NATS_USER?: string | undefined
  NATS_PASSWORD?: string | undefined
  NATS_TOKEN?: string | undefined
}

export interface OpenBusOptions {
  /**
   * Return at once and connect to NATS in the background, for a process that has useful work
   * to do while NATS is away (see createNatsBusInBackground). Default: fail when NATS is down.
   */
  connectInBackground?: boolean
  onError?: (error: unknown, context: string) => void
}

/** NATS when NATS_URL is set; otherwise the in-process bus, which only reaches this process. */
export async function openBus(config: BusConfig, name: string, options: OpenBusOptions = {}): Promise<Bus> {
  if (!config.NATS_URL) return createInProcessBus({ streams: guardStreams })
  const natsOptions = {
    servers: config.NATS_URL,
    name,
    streams: guardStreams,
    ...(config.NATS_USER ? { user: config.NATS_USER } : {}),
    ...(config.NATS_PASSWORD ? { pass: config.NATS_PASSWORD } : {}),
    ...(config.NATS_TOKEN ? { token: config.NATS_TOKEN } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  }
  return options.connectInBackground ? createNatsBusInBackground(natsOptions) : createNatsBus(natsOptions)
}
