export { BusRequestError, type RequestFailure } from './errors.ts'
export { createInProcessBus, type DurableInProcessBusOptions, openDurableInProcessBus } from './in-process.ts'
export { createNatsBus, createNatsBusInBackground, type NatsBusOptions } from './nats.ts'
export type * from './types.ts'
