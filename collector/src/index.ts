export { buildCollectorApp } from './app.ts'
export type { CollectorContext } from './context.ts'
export { type CollectorEnv, collectorEnvSchema, parseCollectorEnv } from './env.ts'
export { type CollectorDeps, prepareCollector, type RunningCollector, startCollector } from './server.ts'
