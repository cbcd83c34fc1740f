import type { StreamSpec } from '../bus/types.ts'
import { DEVICES_STREAM } from './agent-heartbeat.ts'
import { DEAD_LETTERS_STREAM } from './dead-letter.ts'
import { EVENTS_STREAM } from './device-events.ts'
import { PINGS_STREAM } from './heartbeat-ping.ts'

/** JetStream's default duplicate window: a probe retrying a publish within it is dropped. */
const TWO_MINUTES = 120_000
const TEN_MINUTES = 600_000

export const RESULTS_STREAM = 'RESULTS'

/** The durable streams of the platform; every process declares the same list. */
export const guardStreams: StreamSpec[] = [
  { name: RESULTS_STREAM, subjects: ['results.>'], duplicateWindowMs: TWO_MINUTES },
  // An agent retries a heartbeat the collector already stored when the 200 got lost; the consumer
  // also skips stored heartbeats, for retries that come after this window.
  { name: DEVICES_STREAM, subjects: ['devices.>'], duplicateWindowMs: TEN_MINUTES },
  // State-change events of every kind (`events.device.*`, `events.monitor.*`, …), one stream.
  { name: EVENTS_STREAM, subjects: ['events.>'], duplicateWindowMs: TEN_MINUTES },
  // Heartbeat monitors' pings: on the bus before the sender gets its 200, like device heartbeats.
  { name: PINGS_STREAM, subjects: ['pings.>'], duplicateWindowMs: TWO_MINUTES },
  // Messages a consumer could never store, kept apart with the reason until an operator replays or drops them.
  { name: DEAD_LETTERS_STREAM, subjects: ['deadletter.>'], duplicateWindowMs: TEN_MINUTES },
]

/** Probes announce themselves here every few seconds. */
export const probeHeartbeatSubject = (location: string) => `probes.heartbeat.${location}`
