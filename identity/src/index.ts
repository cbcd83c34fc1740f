export { buildIdentityApp } from './app.ts'
export { type IdentityEnv, identityEnvSchema, parseIdentityEnv } from './env.ts'
export { type IdentityDeps, type RunningIdentity, startIdentity } from './server.ts'
