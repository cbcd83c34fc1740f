import type { StreamSpec } from '../bus/types.ts'

/** JetStream's default duplicate window: a probe retrying a publish within it is dropped. */
const TWO_MINUTES = 120_000

export const RESULTS_STREAM = 'RESULTS'
/** Platform events (`events.<type>`, see contracts/events.ts); the event id is the message id. */
export const EVENTS_STREAM = 'EVENTS'

/** The durable streams of the platform; every process declares the same list. */
export const guardStreams: StreamSpec[] = [
  { name: RESULTS_STREAM, subjects: ['results.>'], duplicateWindowMs: TWO_MINUTES },
  { name: EVENTS_STREAM, subjects: ['events.>'], duplicateWindowMs: TWO_MINUTES },
]

/** Probes announce themselves here every few seconds. */
export const probeHeartbeatSubject = (location: string) => `probes.heartbeat.${location}`
