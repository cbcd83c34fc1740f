import { createInProcessBus, createNatsBus } from '../bus/index.ts'
import type { Bus } from '../bus/types.ts'
import { guardStreams } from '../contracts/streams.ts'

export interface BusConfig {
  NATS_URL?: string | undefined
  NATS_USER?: string | undefined
  NATS_PASSWORD?: string | undefined
  NATS_TOKEN?: string | undefined
}

/** NATS when NATS_URL is set; otherwise the in-process bus, which only reaches this process. */
export async function openBus(config: BusConfig, name: string): Promise<Bus> {
  if (!config.NATS_URL) return createInProcessBus({ streams: guardStreams })
  return createNatsBus({
    servers: config.NATS_URL,
    name,
    streams: guardStreams,
    ...(config.NATS_USER ? { user: config.NATS_USER } : {}),
    ...(config.NATS_PASSWORD ? { pass: config.NATS_PASSWORD } : {}),
    ...(config.NATS_TOKEN ? { token: config.NATS_TOKEN } : {}),
  })
}
