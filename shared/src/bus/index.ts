export { BusRequestError, type RequestFailure } from './errors.ts'
export { createInProcessBus } from './in-process.ts'
export { createNatsBus, type NatsBusOptions } from './nats.ts'
export type * from './types.ts'
